package selftest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/conformance"
)

// notApplicableOnHostsim are the checks no hostsim catalog gives a case to:
// TestSelftest proves them on a test catalog.
var notApplicableOnHostsim = []string{"relation-target-form-ref-verified"}

// TestEveryCheckPassesOnTheAsyncHost: hostsim's async profile answers the
// mutations of queues and endpoints with 202 and an Operation that completes on
// its second poll. Every check that passes against full passes there too: the
// runner follows each Operation to its resource or its error before it judges
// (docs/guides/conformance.md). A runner that took the 202 for the resource, or
// stopped polling early, fails the checks that got one; the test also proves
// some did (TAKOKIT_SELFTEST_CHECKS narrows it, for mage mutate).
func TestEveryCheckPassesOnTheAsyncHost(t *testing.T) {
	t.Parallel() // its own host
	only := areaChecks(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", "async") // what it measures is the runner
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	var accepted []string
	for _, r := range sweepRun(ctx, t, sim.URL, cat, unaltered(only), false) { // the sweep's transport tells the 202s
		if r.accepted {
			accepted = append(accepted, r.res.ID)
		}
		want := conformance.StatusPass
		if slices.Contains(notApplicableOnHostsim, r.res.ID) {
			want = conformance.StatusNotApplicable
		}
		if r.res.Status != want {
			t.Errorf("against hostsim async: %s\nwant %s", r.res.Line(), want)
		}
	}
	if only == nil && len(accepted) < 10 {
		t.Errorf("only %d checks got a 202 from hostsim async (%v): the async profile no longer answers with Operations", len(accepted), accepted)
	}
	t.Logf("%d checks followed an Operation: %v", len(accepted), accepted)
}
