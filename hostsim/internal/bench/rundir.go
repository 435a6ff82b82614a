package main

import (
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
)

// A run's temporary folder holds its servers' ready files and logs and the
// --db database. It is named for the bench's process id
// (hostsim-bench-<pid>-*, catalog/piddir), so that a later bench can tell the
// folder of one killed outright (SIGKILL, which no process can catch) from that
// of one still running, and remove it; piddir.Make(tmp, runDirPrefix) does
// both. An interrupt or a termination removes the folder at once
// (removeOnSignal).
const runDirPrefix = "hostsim-bench-"

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
