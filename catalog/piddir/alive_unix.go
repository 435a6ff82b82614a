//go:build unix

package piddir

import (
	"errors"
	"syscall"
)

// Alive reports whether a process of that id exists (another user's counts:
// EPERM means it is there).
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
