//go:build unix

package selftest

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process of that id exists (another user's
// counts: EPERM means it is there).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
