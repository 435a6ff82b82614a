//go:build linux

// The folder and process hygiene of Start, on Linux only: there a host dies
// with the process that started it (procattr_linux.go).

package selftest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/piddir"
)

// A test binary killed outright (SIGKILL, or go test's own kill on a timeout)
// runs no cleanup: its host must die with it, and the next start must remove
// its folder.
func TestAHostDiesWithTheProcessThatStartedIt(t *testing.T) {
	bin := hostsimBinary(t)
	if !filepath.IsAbs(bin) {
		abs, err := filepath.Abs(bin)
		if err != nil {
			t.Fatal(err)
		}
		bin = abs
	}
	tmp := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	child := exec.CommandContext(ctx, os.Args[0])
	child.Env = append(os.Environ(), childEnv+"="+bin, "TMPDIR="+tmp)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	var addr, dir string
	lines := bufio.NewScanner(out)
	for addr == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "host "); ok {
			var pid int
			if _, err := fmt.Sscan(rest, &addr, &pid, &dir); err != nil {
				t.Fatalf("the child's line %q: %v", lines.Text(), err)
			}
			// a host that outlived the child (this test failing) is not left running
			t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
		} else if strings.HasPrefix(lines.Text(), "error:") {
			t.Fatalf("the child could not start a host: %s", lines.Text())
		}
	}
	if addr == "" {
		t.Fatal("the child printed no host address")
	}
	if c, err := net.Dial("tcp", addr); err != nil {
		t.Fatalf("the child's host at %s does not answer before the kill: %v", addr, err)
	} else {
		c.Close()
	}
	_ = child.Process.Kill()
	_ = child.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatalf("the host at %s still answers 10s after the process that started it was killed", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the killed child's folder %s should be there until a later start: %v", dir, err)
	}
	made, err := piddir.Make(tmp, runDirPrefix)
	if err == nil {
		defer os.RemoveAll(made)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the next start left the killed child's folder %s (%v)", dir, err)
	}
}
