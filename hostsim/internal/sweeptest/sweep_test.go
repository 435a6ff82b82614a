package sweeptest

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestASweepStopsAtItsFirstFailureOnlyUnderFailFast runs itself as a probe
// (a sweep of three cases whose first fails) with and without -test.failfast:
// with it, the other two stop; without, they run to their end.
func TestASweepStopsAtItsFirstFailureOnlyUnderFailFast(t *testing.T) {
	if os.Getenv("TAKOKIT_SWEEP_PROBE") != "" {
		probe(t)
		return
	}
	run := func(args ...string) string {
		cmd := exec.Command(os.Args[0], append([]string{"-test.run", "^TestASweepStopsAtItsFirstFailureOnlyUnderFailFast$", "-test.v", "-test.parallel", "3"}, args...)...)
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

// probe is a sweep of three parallel cases; the first fails, the others wait
// for it, then check the sweep. The cases must be parallel: under
// -test.failfast a sequential case after a failure never starts, so only
// cases already running can show the sweep's rule. The parent runs the probe
// with -test.parallel 3, one slot per case: with the default (GOMAXPROCS, 2 on
// CI) the two waiting cases could take every slot and deadlock the first.
func probe(t *testing.T) {
	var s Sweep
	first := make(chan struct{})
	for i := range 3 {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			t.Parallel()
			if i == 0 {
				t.Cleanup(func() { close(first) }) // after Watch's own cleanup, which runs first
				s.Watch(t)
				t.Fatal("the first case fails")
			}
			s.Watch(t)
			<-first
			s.Check(t)
			t.Log("ran to its end")
		})
	}
}
