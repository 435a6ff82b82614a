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

// The bench's folder carries its prefix and process id, and a bench removes
// the folder a bench killed outright left (piddir.Make; which folders it keeps
// is TestMakeRemovesOnlyTheFoldersOfProcessesGone's).
func TestRunDirIsNamedForTheBenchAndRemovesABenchGone(t *testing.T) {
	tmp := t.TempDir()
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(tmp, fmt.Sprintf("%s%d-123", runDirPrefix, gone.Process.Pid))
	if err := os.MkdirAll(filepath.Join(orphan, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := piddir.Make(tmp, runDirPrefix)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("the folder of a bench no longer running is still there (%v)", err)
	}
	if want := fmt.Sprintf("hostsim-bench-%d-", os.Getpid()); filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), want) {
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
