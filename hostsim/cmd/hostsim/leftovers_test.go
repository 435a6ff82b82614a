package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostsimFiles lists the files named hostsim* in the directories a host's
// private database could have used: /dev/shm and the temp dir.
func hostsimFiles(tmp string) map[string]bool {
	out := map[string]bool{}
	for _, dir := range []string{"/dev/shm", tmp} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), "hostsim") {
				out[filepath.Join(dir, e.Name())] = true
			}
		}
	}
	return out
}

// openFiles lists the regular files a process holds open (the runtime's
// cgroup files under /sys aside).
func openFiles(t *testing.T, pid int) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Skipf("cannot read /proc/%d/fd: %v", pid, err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name())
		if err == nil && strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "/dev/null") && !strings.HasPrefix(target, "/proc") && !strings.HasPrefix(target, "/sys") {
			if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() {
				out = append(out, target)
			}
		}
	}
	return out
}

// A host on the private in-memory database names no file, so nothing it
// leaves when it dies: SIGTERM exits 0 with nothing behind, and after a
// SIGKILL a new start finds no stale file of the dead host.
func TestNothingOutlivesTheHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hostsim binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "hostsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the host's temp dir is this test's
	before := hostsimFiles(tmp)
	fresh := func() []string {
		var out []string
		for f := range hostsimFiles(tmp) {
			if !before[f] {
				out = append(out, f)
			}
		}
		return out
	}
	put := func(p *simProcess) {
		code, body, err := p.do(t, "GET", "/apis/forms.takoform.com/v1alpha3/support/forms", nil, nil)
		if err != nil || code != 200 {
			t.Fatalf("support forms: %d %v %s", code, err, body)
		}
		if code, body, err := p.do(t, "POST", "/_sim/reset", nil, nil); err != nil || code != 200 {
			t.Fatalf("reset (writes every table): %d %v %s", code, err, body)
		}
	}

	p := startSim(t, bin, dir)
	put(p)
	if files := openFiles(t, p.cmd.Process.Pid); len(files) > 0 {
		t.Fatalf("the in-memory host holds files open: %v", files)
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("SIGTERM: hostsim did not exit 0: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("SIGTERM: hostsim did not exit")
	}
	if left := fresh(); len(left) > 0 {
		t.Fatalf("after SIGTERM these files remain: %v", left)
	}

	killed := startSim(t, bin, dir)
	put(killed)
	_ = killed.cmd.Process.Kill()
	<-killed.done
	next := startSim(t, bin, dir)
	put(next)
	if left := fresh(); len(left) > 0 {
		t.Fatalf("after a SIGKILL and a new start these files remain: %v", left)
	}
	_ = next.cmd.Process.Signal(syscall.SIGTERM)
	<-next.done
}
