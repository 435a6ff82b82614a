//go:build !unix

package selftest

// processAlive cannot tell here, so every folder counts as its process's and
// none is removed.
func processAlive(int) bool { return true }
