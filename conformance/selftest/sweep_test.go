package selftest

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/conformance"
)

// refusal is the error the sweep's transport answers for the request it refuses.
const refusal = "refused by the request sweep"

// sweepTransport carries a run's requests and refuses the n-th request of each
// check (counting from 1; n = 0 refuses none). Checks run one after the other,
// so the count starts again at each check's result (next).
type sweepTransport struct {
	n     int
	mu    sync.Mutex
	armed bool     // the surface was read: the checks' requests are counted
	sent  []string // method and path of the current check's requests
	fired bool     // the current check's n-th request came and was refused
}

func (s *sweepTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	refuse := false
	if s.armed {
		s.sent = append(s.sent, r.Method+" "+r.URL.Path)
		if len(s.sent) == s.n {
			refuse, s.fired = true, true
		}
	}
	k := len(s.sent)
	s.mu.Unlock()
	if refuse {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("%s (request %d)", refusal, k)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// next ends the current check: its requests and whether its n-th was refused.
func (s *sweepTransport) next() ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sent, fired := s.sent, s.fired
	s.sent, s.fired = nil, false
	return sent, fired
}

// sweptCheck is one check's result in a sweep run.
type sweptCheck struct {
	res   conformance.Result
	sent  []string
	fired bool
}

// sweepRun runs the checks ids in one run against the host, refusing the n-th
// request of each.
func sweepRun(ctx context.Context, t *testing.T, url string, cat *catalog.Catalog, ids []string, n int) map[string]sweptCheck {
	t.Helper()
	tr := &sweepTransport{n: n}
	out := map[string]sweptCheck{}
	cfg := conformance.Config{Endpoint: url, Catalog: cat, Space: "sweep", Only: ids, Transport: tr, Timeout: 20 * time.Second,
		AfterSurface: func(context.Context) error {
			tr.mu.Lock()
			tr.armed = true
			tr.mu.Unlock()
			return nil
		},
		Progress: func(r conformance.Result) {
			sent, fired := tr.next()
			if slices.Contains(ids, r.ID) {
				out[r.ID] = sweptCheck{res: r, sent: sent, fired: fired}
			}
		}}
	tokens(&cfg)
	if _, err := conformance.Run(ctx, cfg); err != nil {
		t.Fatalf("the sweep's run refusing request %d did not start: %v", n, err)
	}
	return out
}

// TestEveryCheckErrsWhenOneOfItsRequestsFails: a check whose request gets no
// answer must end in error, naming that request, never pass, never fail (a host
// is not at fault for a connection the runner lost). Every check that passes
// against hostsim full runs again once per request it made, with that one
// refused by the transport: a check that dropped a request's error, or went on
// with no answer, would pass, fail or report a runner bug instead
// (docs/guides/conformance.md, "A lost request"). Run n refuses the n-th
// request of every check that made at least n.
func TestEveryCheckErrsWhenOneOfItsRequestsFails(t *testing.T) {
	t.Parallel() // its own host
	only := areaChecks(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", "full") // what it measures is the runner: a hostsim process adds nothing but its start
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	var ids []string
	for _, c := range conformance.Table() {
		if only == nil || contains(only, c.ID) {
			ids = append(ids, c.ID)
		}
	}
	base := sweepRun(ctx, t, sim.URL, cat, ids, 0)
	if only != nil && !slices.ContainsFunc(ids, func(id string) bool { return base[id].res.Status == conformance.StatusPass }) {
		// mage mutate narrows the test to one check (TAKOKIT_SELFTEST_CHECKS); one
		// not-applicable against full is proven on a test catalog by TestSelftest
		t.Skipf("none of %v passes against hostsim full, so none has a request to refuse here", ids)
	}
	runs, short := 0, 0
	for n := 1; ; n++ {
		var due []string
		for _, id := range ids {
			if b := base[id]; b.res.Status == conformance.StatusPass && len(b.sent) >= n {
				due = append(due, id) // what a check answers against full is TestSelftest's
			}
		}
		if len(due) == 0 {
			break
		}
		for id, r := range sweepRun(ctx, t, sim.URL, cat, due, n) {
			if !r.fired {
				short++ // this run polled an operation fewer times: it ended before its n-th request
				continue
			}
			runs++
			if want := fmt.Sprintf("%s (request %d)", refusal, n); r.res.Status != conformance.StatusError || !strings.Contains(r.res.Message, want) {
				t.Errorf("%s with its request %d (%s) refused: %s\nwant status error naming %q", id, n, r.sent[n-1], r.res.Line(), want)
			}
		}
	}
	if runs == 0 {
		t.Fatal("no check had a request refused: the sweep measured nothing")
	}
	t.Logf("%d checks run with one request refused; %d more ended before the request to refuse", runs, short)
}
