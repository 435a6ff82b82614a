package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// A run's temporary folder holds its servers' ready files and logs and the
// --db database. It is named for the bench's process id
// (hostsim-bench-<pid>-*), so that a later bench can tell the folder of one
// killed outright (SIGKILL, which no process can catch) from that of one
// still running, and remove it. An interrupt or a termination removes the
// folder at once (removeOnSignal).
const runDirPrefix = "hostsim-bench-"

// makeRunDir removes from tmp the folders of benches no longer running, then
// makes this run's.
func makeRunDir(tmp string) (string, error) {
	removeOrphans(tmp)
	return os.MkdirTemp(tmp, fmt.Sprintf("%s%d-", runDirPrefix, os.Getpid()))
}

// removeOrphans removes each hostsim-bench-<pid>-* folder of tmp whose process
// is no longer running; a folder whose name holds no process id is left alone.
func removeOrphans(tmp string) {
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), runDirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		digits, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(digits)
		if !ok || err != nil || pid <= 0 || running(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}

// running reports whether a process of that id exists (another user's counts).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// started is every server this bench started, which a signal stops before the
// folder goes.
var started struct {
	sync.Mutex
	procs []*proc
}

// stopping is set once a signal arrived: the run's errors from then on (a
// server killed under a request) are the signal's doing, and main leaves the
// exit to removeOnSignal.
var stopping atomic.Bool

// removeOnSignal waits for a signal from sigs, then kills every server the
// run started, removes dir and exits with 128 + the signal's number, as a shell
// reports a process the signal ended.
func removeOnSignal(sigs <-chan os.Signal, dir string, exit func(int)) {
	s := <-sigs
	stopping.Store(true)
	started.Lock()
	procs := slices.Clone(started.procs)
	started.Unlock()
	for _, p := range procs {
		p.kill()
	}
	_ = os.RemoveAll(dir)
	code := 1
	if n, ok := s.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	exit(code)
}
