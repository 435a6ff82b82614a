//go:build !unix

package piddir

// Alive cannot tell here, so every folder counts as its process's and none is
// removed.
func Alive(int) bool { return true }
