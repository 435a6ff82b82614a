package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// filesIn lists the files in dir.
func filesIn(dir string) []string {
	var out []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}

// openFiles lists the regular files a process holds open (the runtime's
// cgroup files under /sys aside), less those this test process holds too: a
// file this process inherited (a caller's `time -o FILE`) is inherited by the
// host as well, and is not the host's.
func openFiles(t *testing.T, pid int) []string {
	t.Helper()
	ours := map[string]bool{}
	if pid != os.Getpid() {
		for _, f := range openFiles(t, os.Getpid()) {
			ours[f] = true
		}
	}
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Skipf("cannot read /proc/%d/fd: %v", pid, err)
	}
	var out []string
	for _, fd := range fds {
		target, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name())
		if err == nil && strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "/dev/null") && !strings.HasPrefix(target, "/proc") && !strings.HasPrefix(target, "/sys") {
			if fi, err := os.Stat(target); err == nil && fi.Mode().IsRegular() && !ours[target] {
				out = append(out, target)
			}
		}
	}
	return out
}

// A host on the private in-memory database names no file, so it leaves none
// when it dies: while it serves it holds no file open (in /dev/shm, its temp
// dir or anywhere else), SIGTERM exits 0 with its temp dir empty, and after a
// SIGKILL a new start finds nothing of the dead host. (Other processes on the
// machine may write /dev/shm, so the proof is the host's own open files.)
func TestNothingOutlivesTheHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hostsim binary")
	}
	dir := t.TempDir()
	bin := hostsimBinary(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // the host's temp dir is this test's
	serve := func() *simProcess {
		p := startSim(t, bin, dir)
		code, body, err := p.do(t, "GET", wire.DefaultLane.APIRoot+"/support/forms", nil, nil)
		if err != nil || code != 200 {
			t.Fatalf("support forms: %d %v %s", code, err, body)
		}
		// A migration gives the host a real database of its own, in memory too.
		p.create(t, cat, "SQLiteDatabase", "db", map[string]any{})
		p.migrate(t, cat, "db", "v1", "app", migrationFiles[:2]...)
		if files := openFiles(t, p.cmd.Process.Pid); len(files) > 0 {
			t.Fatalf("the in-memory host holds files open after a migration: %v", files)
		}
		if code, body, err := p.do(t, "POST", "/_sim/reset", nil, nil); err != nil || code != 200 {
			t.Fatalf("reset (writes every table): %d %v %s", code, err, body)
		}
		if files := openFiles(t, p.cmd.Process.Pid); len(files) > 0 {
			t.Fatalf("the in-memory host holds files open: %v", files)
		}
		return p
	}

	p := serve()
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
	if left := filesIn(tmp); len(left) > 0 {
		t.Fatalf("after SIGTERM these files remain in the host's temp dir: %v", left)
	}

	killed := serve()
	_ = killed.cmd.Process.Kill()
	<-killed.done
	next := serve()
	if left := filesIn(tmp); len(left) > 0 {
		t.Fatalf("after a SIGKILL and a new start these files remain in the temp dir: %v", left)
	}
	_ = next.cmd.Process.Signal(syscall.SIGTERM)
	<-next.done
}
