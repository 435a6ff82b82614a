package hostsim_test

import (
	"flag"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// sweep is one fault sweep's cases (docs/mutation.md#killers-first). Under
// -test.failfast, which the mutation runner passes, a case that failed stops
// the others at their next step: the test has failed already, and the rest of
// a sweep is most of its cost. TestStoreFaultsLeaveEveryChangeWhole takes 11 s
// unmutated; a lifecycle mutant whose first failing case fails in a second
// kept it running for 37 s. Without the flag every case runs to its end, so a
// change that breaks several cases shows them all.
type sweep struct{ failed atomic.Bool }

// watch marks the sweep failed when t, one of its cases, fails.
func (s *sweep) watch(t *testing.T) {
	t.Cleanup(func() {
		if t.Failed() {
			s.failed.Store(true)
		}
	})
}

// check skips t when -test.failfast is set and another case of the sweep failed.
func (s *sweep) check(t *testing.T) {
	if s.failed.Load() && failFast() {
		t.Skip("-test.failfast: another case of this sweep failed already")
	}
}

// failFast is whether the test binary runs with -test.failfast.
func failFast() bool {
	f := flag.Lookup("test.failfast")
	return f != nil && f.Value.String() == "true"
}

// TestASweepStopsAtItsFirstFailureOnlyUnderFailFast runs itself as a probe
// (a sweep of three cases whose first fails) with and without -test.failfast:
// with it, the other two stop; without, they run to their end.
func TestASweepStopsAtItsFirstFailureOnlyUnderFailFast(t *testing.T) {
	if os.Getenv("TAKOKIT_SWEEP_PROBE") != "" {
		sweepProbe(t)
		return
	}
	run := func(args ...string) string {
		cmd := exec.Command(os.Args[0], append([]string{"-test.run", "^TestASweepStopsAtItsFirstFailureOnlyUnderFailFast$", "-test.v"}, args...)...)
		cmd.Env = append(os.Environ(), "TAKOKIT_SWEEP_PROBE=1")
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "the first case fails") {
			t.Fatalf("the probe's first case fails, yet: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := run("-test.failfast"); strings.Contains(out, "ran to its end") || strings.Count(out, "another case of this sweep failed") != 2 {
		t.Errorf("with -test.failfast the other two cases must stop:\n%s", out)
	}
	if out := run(); strings.Count(out, "ran to its end") != 2 {
		t.Errorf("without -test.failfast the other two cases must run to their end:\n%s", out)
	}
}

// sweepProbe is a sweep of three cases; the first fails, the others wait for
// it, then check the sweep.
func sweepProbe(t *testing.T) {
	var s sweep
	first := make(chan struct{})
	for i := range 3 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			if i == 0 {
				t.Cleanup(func() { close(first) }) // after watch's own cleanup, which runs first
				s.watch(t)
				t.Fatal("the first case fails")
			}
			s.watch(t)
			<-first
			s.check(t)
			t.Log("ran to its end")
		})
	}
}
