package selftest

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/conformance"
)

// notApplicableOnHostsim are the checks no hostsim catalog gives a case to:
// TestSelftest proves them on a test catalog.
var notApplicableOnHostsim = []string{"relation-target-form-ref-verified"}

// acceptedCounter carries a run's requests and counts, per check, the answers
// with status 202 (an Operation the runner must follow).
type acceptedCounter struct {
	mu       sync.Mutex
	accepted int
}

func (a *acceptedCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusAccepted {
		a.mu.Lock()
		a.accepted++
		a.mu.Unlock()
	}
	return resp, err
}

// next ends the running check: how many of its answers were 202.
func (a *acceptedCounter) next() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.accepted
	a.accepted = 0
	return n
}

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
	tr := &acceptedCounter{}
	var accepted []string
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "async", Only: only, Transport: tr, Timeout: 20 * time.Second,
		AfterSurface: func(context.Context) error { tr.next(); return nil },
		Progress: func(r conformance.Result) {
			if tr.next() > 0 {
				accepted = append(accepted, r.ID)
			}
			want := conformance.StatusPass
			if slices.Contains(notApplicableOnHostsim, r.ID) {
				want = conformance.StatusNotApplicable
			}
			if r.Status != want && r.Status != conformance.StatusSkipped {
				t.Errorf("against hostsim async: %s\nwant %s", r.Line(), want)
			}
		}}
	tokens(&cfg)
	if _, err := conformance.Run(ctx, cfg); err != nil {
		t.Fatalf("the run against hostsim async did not start: %v", err)
	}
	if only == nil && len(accepted) < 10 {
		t.Errorf("only %d checks got a 202 from hostsim async (%v): the async profile no longer answers with Operations", len(accepted), accepted)
	}
	t.Logf("%d checks followed an Operation: %v", len(accepted), accepted)
}
