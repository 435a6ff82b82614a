//go:build !linux

package testrun

// inMemory cannot tell here: the test jobs keep the system's temporary folder.
func inMemory(string) bool { return false }
