package scripts

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// An executable still open for writing somewhere (as in a child another test forked
// a moment before it execs) cannot be run; the harness starts it once it can.
func TestStartWaitsOutABusyExecutable(t *testing.T) {
	t.Parallel() // its own file
	exe := filepath.Join(t.TempDir(), "busy")
	f, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("#!/bin/sh\nexit 0\n"); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command(exe).Run(); !errors.Is(err, syscall.ETXTBSY) {
		t.Fatalf("a file open for writing ran (%v): this test proves nothing here", err)
	}
	time.AfterFunc(150*time.Millisecond, func() { f.Close() })
	tries := 0
	cmd, err := startUnlessBusy(func() *exec.Cmd { tries++; return exec.Command(exe) })
	if err != nil {
		t.Fatalf("the start gave up on a file busy for 150 ms: %v", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if tries < 2 {
		t.Fatalf("started at the first try: the file was not busy")
	}
}

// Any other failure to start is returned at once.
func TestStartReturnsOtherErrorsAtOnce(t *testing.T) {
	t.Parallel()
	tries := 0
	_, err := startUnlessBusy(func() *exec.Cmd { tries++; return exec.Command(filepath.Join(t.TempDir(), "missing")) })
	if !errors.Is(err, os.ErrNotExist) || tries != 1 {
		t.Fatalf("a missing program: %v after %d tries; want not-exist after 1", err, tries)
	}
}
