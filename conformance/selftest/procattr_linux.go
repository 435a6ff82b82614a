//go:build linux

package selftest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the host when the process that started it
// dies, even by SIGKILL, so a test binary killed outright leaves no hostsim
// listening behind it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
