package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/piddir"
)

// A bench removes the folders that benches killed outright left, and only
// those: not a running bench's, not one whose name holds no process id.
func TestRunDirRemovesOnlyTheFoldersOfBenchesGone(t *testing.T) {
	tmp := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead, self := gone.Process.Pid, os.Getpid()
	mk := func(name string, dir bool) string {
		p := filepath.Join(tmp, name)
		if dir {
			if err := os.MkdirAll(filepath.Join(p, "inner"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p, "bench.db"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	orphan := mk(fmt.Sprintf("hostsim-bench-%d-123", dead), true)
	kept := []string{
		mk(fmt.Sprintf("hostsim-bench-%d-456", self), true), // a bench still running
		mk("hostsim-bench-789", true),                       // no process id in the name
		mk(fmt.Sprintf("hostsim-bench-%d-file", dead), false),
		mk(fmt.Sprintf("other-%d-123", dead), true),
	}
	dir, err := piddir.Make(tmp, runDirPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the folder of a bench no longer running is still there (%v)", err)
	}
	for _, k := range kept {
		if _, err := os.Stat(k); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(k), err)
		}
	}
	if want := fmt.Sprintf("hostsim-bench-%d-", self); filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), want) {
		t.Errorf("the run's folder is %s; want %s* in %s", dir, want, tmp)
	}
}

// An interrupt or a termination kills the run's servers, removes its folder
// and exits as the signal would have.
func TestSignalKillsTheServersAndRemovesTheFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	server := filepath.Join(t.TempDir(), "server")
	// a server that writes its ready file (the last argument) and then serves until killed
	script := "#!/bin/sh\nfor last; do :; done\nprintf '{\"url\": \"http://127.0.0.1:9\"}' > \"$last\"\nexec sleep 60\n"
	if err := os.WriteFile(server, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := start(dir, "server", server)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.kill)
	sigs := make(chan os.Signal, 1)
	sigs <- syscall.SIGTERM
	code := -1
	removeOnSignal(sigs, dir, func(c int) { code = c })
	if code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit code %d; want %d", code, 128+int(syscall.SIGTERM))
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the run's folder is still there (%v)", err)
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		t.Error("the server still runs 5 s after the signal")
	}
}
