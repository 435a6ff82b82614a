package selftest

import (
	"bytes"
	"context"
	"fmt"
	"io"
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

// teapot is the status the answer sweep gives the answer it alters: a status no
// request of the protocol is answered with, so no check may accept it.
const teapot = http.StatusTeapot

// sweepTransport carries a run's requests and alters the n-th request of the
// running check, n = plan[i].n for the run's i-th check (counting requests from 1;
// n = 0 alters none), or with plan[i].distinct the first request of its n-th
// distinct call (sweep_sites_test.go): it refuses it, or with restatus sends it
// and answers the host's answer with its status replaced by teapot. Checks run
// one after the other, so the count starts again at each check's result (next).
type sweepTransport struct {
	plan     []alteration
	restatus bool
	// lies, when set, tells each planned run's lie (plan[i].lie, lies_test.go): the
	// n-th answer is told it instead, and every answer of a check is kept (the
	// lies that replay an earlier answer read them)
	lies bool
	keep bool // with lies: each check's answers go with its result (not only while it runs)
	// socket sends every request over HTTP, an in-process host's too (direct
	// skips its socket otherwise)
	socket bool
	// timeout is each check's (0: 20 s); a lie can leave a check waiting for what
	// never comes, and the lie sweep does not wait 20 s for each such lie
	timeout time.Duration
	mu      sync.Mutex
	armed   bool            // the surface was read: the checks' requests are counted
	check   int             // the running check's index in plan
	sent    []string        // method and path of the running check's requests
	calls   []string        // in an unaltered run, for each of sent, its call (callOf)
	runner  []bool          // in an unaltered run, for each of sent, whether the runner's code sent it
	seen    map[string]bool // with distinct: the running check's calls so far
	firedAt int             // which of the running check's requests was altered
	answers []answer        // with lies: the answers the running check got, as it got them
	// with lies: how many of the running check's requests are sent and not yet
	// answered, and for each of its requests whether one was when it was sent
	unanswered int
	concurrent []bool
	fired      bool // the running check's n-th request came and was altered
	told       bool // with lies: the n-th answer could be told the lie (it applied)
	accepted   bool // some answer of the running check had status 202
}

func (s *sweepTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	alter, counted := false, false
	if s.armed && s.check < len(s.plan) {
		sent := r.Method + " " + r.URL.Path
		s.sent = append(s.sent, sent)
		n := s.plan[s.check].n
		switch {
		case n == 0: // an unaltered run: the sweep plans from its calls
			pcs := callers()
			s.calls, s.runner = append(s.calls, callOf(pcs, sent)), append(s.runner, sentByRunner(pcs))
		case s.plan[s.check].distinct && !s.fired:
			// the n-th distinct call of this run, whichever request it is: a run
			// after the first can send fewer (an artifact already uploaded)
			if c := callOf(callers(), sent); !s.seen[c] {
				if s.seen == nil {
					s.seen = map[string]bool{}
				}
				s.seen[c] = true
				alter = len(s.seen) == n
			}
		case s.plan[s.check].distinct: // altered already: the rest of the run is not counted
		default:
			alter = len(s.sent) == n
		}
		if s.lies {
			s.concurrent = append(s.concurrent, s.unanswered > 0)
			s.unanswered++
			counted = true
		}
		if alter {
			s.fired, s.firedAt = true, len(s.sent)
		}
	}
	k := len(s.sent)
	s.mu.Unlock()
	if counted {
		// answered (or failed) once this returns: the check reads the answer after
		defer func() {
			s.mu.Lock()
			s.unanswered--
			s.mu.Unlock()
		}()
	}
	if alter && !s.restatus && !s.lies {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("%s (request %d)", refusal, k)
	}
	roundTrip := direct
	if s.socket {
		roundTrip = http.DefaultTransport.RoundTrip
	}
	resp, err := roundTrip(r)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode == http.StatusAccepted {
		s.mu.Lock()
		s.accepted = true
		s.mu.Unlock()
	}
	if s.lies {
		return s.tell(r, resp, alter, k)
	}
	if alter {
		resp.StatusCode, resp.Status = teapot, fmt.Sprintf("%d %s", teapot, http.StatusText(teapot))
	}
	return resp, err
}

// tell reads the whole answer to the running check's request k, keeps it, and
// when alter is set tells the running check's lie in its place.
func (s *sweepTransport) tell(r *http.Request, resp *http.Response, alter bool, k int) (*http.Response, error) {
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	a := answer{n: k, target: r.Method + " " + r.URL.Path, status: resp.StatusCode, header: resp.Header.Clone(), body: b}
	s.mu.Lock()
	defer s.mu.Unlock()
	if alter {
		if lied, ok := tellLie(s.plan[s.check].lie, a, s.before(k)); ok {
			a, s.told = lied, true
		}
	}
	s.answers = append(s.answers, a)
	resp.StatusCode, resp.Status = a.status, fmt.Sprintf("%d %s", a.status, http.StatusText(a.status))
	resp.Header = a.header
	resp.Header.Del("Content-Length")
	resp.ContentLength = int64(len(a.body))
	resp.Body = io.NopCloser(bytes.NewReader(a.body))
	return resp, nil
}

// before is the running check's answers to its requests sent before request k,
// in the order they were sent: what a lie may replay. A lie is recorded only
// for a request sent once every earlier one was answered (sweptCheck.concurrent),
// so here they all are. Called with s.mu held.
func (s *sweepTransport) before(k int) []answer {
	var out []answer
	for _, a := range s.answers {
		if a.n < k {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b answer) int { return a.n - b.n })
	return out
}

// next ends the running check: its requests, whether its n-th was altered, and
// whether one of its answers was 202.
func (s *sweepTransport) next() sweptCheck {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := sweptCheck{sent: s.sent, calls: s.calls, runner: s.runner, concurrent: s.concurrent, fired: s.fired, firedAt: s.firedAt, told: s.told, accepted: s.accepted}
	if s.keep {
		// in the order the requests were sent: the recording numbers a lie's
		// request by its answer's place here
		out.answers = slices.SortedStableFunc(slices.Values(s.answers), func(a, b answer) int { return a.n - b.n })
	}
	s.sent, s.calls, s.runner, s.seen, s.answers, s.concurrent = nil, nil, nil, nil, nil, nil
	s.fired, s.firedAt, s.told, s.accepted = false, 0, false, false
	s.check++
	return out
}

// sweptCheck is one check's result in a sweep run.
type sweptCheck struct {
	res    conformance.Result
	sent   []string
	calls  []string // in an unaltered run, for each of sent, its call (callOf)
	runner []bool   // in an unaltered run, for each of sent, whether the runner's code sent it
	// with lies: whether each request was sent while an earlier one was unanswered
	concurrent []bool
	answers    []answer // with lies: the answers it got
	fired      bool
	firedAt    int  // the altered request's number among sent
	told       bool // with lies: the lie applied to the n-th answer
	accepted   bool // an answer had status 202: the check followed an Operation
}

// alteration is one run of a check with its n-th request altered (and, in the
// lie sweep, the lie its answer tells).
type alteration struct {
	id       string
	n        int
	distinct bool // n counts the check's distinct calls (sweep_sites_test.go), not its requests
	lie      string
}

// unaltered plans one run of each check of the table (of only, when it is not
// nil) with nothing altered: the sweep's transport then only records.
func unaltered(only []string) []alteration {
	var plan []alteration
	for _, c := range conformance.Table() {
		if only == nil || contains(only, c.ID) {
			plan = append(plan, alteration{id: c.ID})
		}
	}
	return plan
}

// sweepRun runs the planned alterations in order, in one conformance run
// against the host (its surface read once), altering each one's request
// (restatus: its answer's status, else the request itself).
func sweepRun(ctx context.Context, t *testing.T, url string, cat *catalog.Catalog, plan []alteration, restatus bool) []sweptCheck {
	t.Helper()
	return sweepWith(ctx, t, url, cat, plan, &sweepTransport{restatus: restatus})
}

// sweepWith is sweepRun through the transport tr (the lie sweep's keeps answers).
func sweepWith(ctx context.Context, t *testing.T, url string, cat *catalog.Catalog, plan []alteration, tr *sweepTransport) []sweptCheck {
	t.Helper()
	if len(plan) == 0 {
		t.Fatal("the sweep planned no run: an empty Checks would run the whole table")
	}
	var checks []conformance.Check
	for _, a := range plan {
		i := slices.IndexFunc(conformance.Table(), func(c conformance.Check) bool { return c.ID == a.id })
		if i < 0 {
			t.Fatalf("the sweep plans check %q, which is no check of the table", a.id)
		}
		checks, tr.plan = append(checks, conformance.Table()[i]), append(tr.plan, a)
	}
	var out []sweptCheck
	// the runner's own pause between polls (20 ms) is most of a sweep's time on
	// hostsim async, where an Operation completes on its second poll
	timeout := 20 * time.Second
	if tr.timeout > 0 {
		timeout = tr.timeout
	}
	cfg := conformance.Config{Endpoint: url, Catalog: cat, Space: "sweep", Checks: checks, Transport: tr, Timeout: timeout, PollPause: time.Millisecond,
		AfterSurface: func(context.Context) error {
			tr.mu.Lock()
			tr.armed = true
			tr.mu.Unlock()
			return nil
		},
		Progress: func(r conformance.Result) {
			c := tr.next()
			c.res = r
			out = append(out, c)
		}}
	tokens(&cfg)
	if _, err := conformance.Run(ctx, cfg); err != nil {
		t.Fatalf("the sweep's run did not start: %v", err)
	}
	if len(out) != len(plan) {
		t.Fatalf("the sweep planned %d runs of checks and got %d results", len(plan), len(out))
	}
	return out
}

// sweepHosts are the hosts a sweep runs against: full, and async, whose
// mutations of queues and endpoints answer 202 with an Operation to poll. Against
// async only the polls are altered (polls), of the checks that got a 202: every
// other request is one they also send to full, where it was altered already.
// Against the partial hosts only the requests from the first one where a
// check's sequence leaves the one it sends to full are altered (onlyNew): what
// a check sends because a host installs less (kv-only: a two-version kind
// other than full's; testdata/endpoint-two-versions.json: WorkerEndpoint as the
// one two-version kind, whose spec needs a worker made first; no-bucket-binding:
// the unimplemented-binding sub-case) or
// publishes a narrowing (tight-limits: the applies outside a narrowed enum) is
// handled by code that full never reaches, and it may send requests full also
// gets (a fresh target's create) from there on.
var sweepHosts = []struct {
	profile string
	polls   bool
	onlyNew bool
}{{"full", false, false}, {"async", true, false}, {"kv-only", false, true}, {"tight-limits", false, true},
	{"no-bucket-binding", false, true}, {"testdata/endpoint-two-versions.json", false, true}}

// sameRequest is a sent request ("PUT /path") with what differs between two
// runs masked: random names, and the counters of names and spaces.
func sameRequest(sent string) string { return runLocal.ReplaceAllString(masked(sent), "#") }

var (
	fullSentMu sync.Mutex
	fullSent   map[string][]string
)

// sentOnFull is, per check, the requests (sameRequest) it sends to hostsim
// full, in order, in one unaltered run of the checks only names, measured once
// per test binary: the request sweep asks for it against each partial host.
func sentOnFull(ctx context.Context, t *testing.T, cat *catalog.Catalog, only []string) map[string][]string {
	t.Helper()
	fullSentMu.Lock()
	defer fullSentMu.Unlock()
	if fullSent != nil {
		return fullSent
	}
	sim, err := startInProcess(ctx, "", "full")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	out := map[string][]string{}
	for _, b := range sweepRun(ctx, t, sim.URL, cat, unaltered(only), false) {
		for _, r := range b.sent {
			out[b.res.ID] = append(out[b.res.ID], sameRequest(r))
		}
	}
	fullSent = out
	return out
}

// sentAsOnFull is how many of a check's first requests (sent) are the ones it
// sends to full (onFull, as sameRequest gives them), in order. A check that
// sends requests at once on purpose (concurrent) sends them in the order the
// scheduler gives, another in each run: for it the answer is all of them when
// it sends the same requests as to full, in any order, else none. Compared in
// order, the place its sequence left full's moved from run to run, and with it
// which of its requests the sweep altered (docs/decisions.md, "The request sweep
// alters the same requests in every run").
func sentAsOnFull(id string, sent, onFull []string) int {
	if slices.Contains(concurrent, id) {
		mine := make([]string, len(sent))
		for i, r := range sent {
			mine[i] = sameRequest(r)
		}
		slices.Sort(mine)
		if slices.Equal(mine, slices.Sorted(slices.Values(onFull))) {
			return len(sent)
		}
		return 0
	}
	n := 0
	for n < len(sent) && n < len(onFull) && sameRequest(sent[n]) == onFull[n] {
		n++
	}
	return n
}

// sameOverHTTP fails t when a check of base, the sweep's unaltered run through
// direct against hostsim profile, ends otherwise when its requests go over
// HTTP: the sweep alters only the runs of checks that passed, so one that
// failed only for the shortcut would go unswept in silence. The run over HTTP
// is made once per profile and test binary (both sweeps ask it of full and
// async), against the sweep's host at url.
func sameOverHTTP(ctx context.Context, t *testing.T, profile, url string, cat *catalog.Catalog, only []string, base []sweptCheck) {
	t.Helper()
	overHTTPMu.Lock()
	ended, ok := overHTTP[profile]
	if !ok {
		ended = map[string]conformance.Result{}
		for _, h := range sweepWith(ctx, t, url, cat, unaltered(only), &sweepTransport{socket: true}) {
			ended[h.res.ID] = h.res
		}
		overHTTP[profile] = ended
	}
	overHTTPMu.Unlock()
	for _, d := range base {
		if h := ended[d.res.ID]; h.Status != d.res.Status {
			t.Errorf("%s ends %s over HTTP and %s through direct: the sweep's shortcut changes what the check sees\nover HTTP: %s\ndirect:    %s",
				d.res.ID, h.Status, d.res.Status, h.Line(), d.res.Line())
		}
	}
}

var (
	overHTTPMu sync.Mutex
	overHTTP   = map[string]map[string]conformance.Result{} // by profile, by check: how it ended over HTTP
)

// isPoll says whether a sent request ("GET /path") reads an Operation.
func isPoll(sent string) bool {
	return strings.HasPrefix(sent, http.MethodGet+" ") && strings.Contains(sent, "/operations/")
}

// sweepEach runs sweep against each of sweepHosts, as subtests; the answer
// sweep (restatus) skips the partial hosts. There a refused request reaches
// error paths full never takes (a setup step of a sub-case only a partial host
// has: two kills the full sweep could not make, docs/mutation-equivalent-conformance.md),
// while a 418 in the same place meets the status test that every answer of
// full already meets; run there too it took those hosts' 16 s twice, and no
// mutant listed as not asserted waits on it.
func sweepEach(t *testing.T, restatus bool, judge func(t *testing.T, id string, n int, r sweptCheck)) {
	for _, h := range sweepHosts {
		if restatus && h.onlyNew {
			continue
		}
		t.Run(h.profile, func(t *testing.T) {
			sweep(t, h.profile, h.polls, h.onlyNew, restatus, func(id string, n int, r sweptCheck) { judge(t, id, n, r) })
		})
	}
}

// sweep runs every check that passes against hostsim profile (or the ones
// TAKOKIT_SELFTEST_CHECKS names) again once per call it made (firstCalls; with
// polls, once per poll of an Operation; a check that races its requests on
// purpose, once per request), altering that one (sweepRun), and hands judge
// each run in which the altered request came; it returns how many did.
func sweep(t *testing.T, profile string, polls, onlyNew, restatus bool, judge func(id string, n int, r sweptCheck)) int {
	only := areaChecks(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", profile) // what it measures is the runner: a hostsim process adds nothing but its start
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	base := sweepRun(ctx, t, sim.URL, cat, unaltered(only), false)
	sentByTheRunner(t, base)
	sameOverHTTP(ctx, t, profile, sim.URL, cat, only, base)
	var full map[string][]string
	if onlyNew {
		full = sentOnFull(ctx, t, cat, only)
	}
	var ids []string
	var plan []alteration
	for _, b := range base {
		if b.res.Status != conformance.StatusPass {
			continue // what a check answers against full is TestSelftest's (against async, TestEveryCheckPassesOnTheAsyncHost's)
		}
		if polls && !b.accepted {
			continue
		}
		from := 0 // the requests before it are the ones the check sends to full
		if full != nil {
			from = sentAsOnFull(b.res.ID, b.sent, full[b.res.ID])
		}
		var alts []alteration
		switch {
		case polls || slices.Contains(concurrent, b.res.ID): // every poll, or every request
			for n := from + 1; n <= len(b.sent); n++ {
				if !polls || isPoll(b.sent[n-1]) {
					alts = append(alts, alteration{id: b.res.ID, n: n})
				}
			}
		default:
			for k, first := range firstCalls(b) {
				if first > from {
					alts = append(alts, alteration{id: b.res.ID, n: k + 1, distinct: true})
				}
			}
		}
		if len(alts) > 0 {
			ids = append(ids, b.res.ID)
		}
		plan = append(plan, alts...)
	}
	if only != nil && len(plan) == 0 {
		// mage mutate narrows the test to one check (TAKOKIT_SELFTEST_CHECKS); one
		// not-applicable against full is proven on a test catalog by TestSelftest,
		// and a check whose Operation ends without a poll (a cancel) polls nothing
		t.Skipf("none of %v passes against hostsim %s with a request to alter here (a poll, when only polls are; one past where it leaves what it sends to full, when only those are)", only, profile)
	}
	runs, short := 0, 0
	for i, r := range sweepRun(ctx, t, sim.URL, cat, plan, restatus) {
		if !r.fired {
			short++ // this run polled an operation fewer times: it ended before its n-th request
			continue
		}
		runs++
		judge(plan[i].id, r.firedAt, r)
	}
	if runs == 0 {
		t.Fatal("no check had a request altered: the sweep measured nothing")
	}
	t.Logf("%d runs of %d checks with one request altered; %d more ended before the request to alter", runs, len(ids), short)
	return runs
}

// TestEveryCheckErrsWhenOneOfItsRequestsFails: a check whose request gets no
// answer must end in error, naming that request, never pass, never fail (a host
// is not at fault for a connection the runner lost). Every check that passes
// against hostsim full runs again once per call it made (firstCalls: a request
// repeated by the same lines of the runner is refused once), with that one
// refused by the transport: a check that dropped a request's error, or went on
// with no answer, would pass, fail or report a runner bug instead
// (docs/guides/conformance.md, "A lost request").
func TestEveryCheckErrsWhenOneOfItsRequestsFails(t *testing.T) {
	t.Parallel() // its own hosts
	sweepEach(t, false, func(t *testing.T, id string, n int, r sweptCheck) {
		if want := fmt.Sprintf("%s (request %d)", refusal, n); r.res.Status != conformance.StatusError || !strings.Contains(r.res.Message, want) {
			t.Errorf("%s with its request %d (%s) refused: %s\nwant status error naming %q", id, n, r.sent[n-1], r.res.Line(), want)
		}
	})
}

// TestEveryCheckFailsWhenOneOfItsAnswersHasAnotherStatus: a check reads the
// status of every answer it gets. Every check that passes against hostsim full
// runs again once per call it made (firstCalls), with that one's answer given status 418
// (its body and headers as the host sent them), and must end naming the 418:
// failed, or errored when the answer was a setup step's (a check's setup is not
// its rule). A check that went on past an answer without looking at its status
// would pass, or end later for another reason (docs/guides/conformance.md, "An
// answer's status").
func TestEveryCheckFailsWhenOneOfItsAnswersHasAnotherStatus(t *testing.T) {
	t.Parallel() // its own hosts
	sweepEach(t, true, func(t *testing.T, id string, n int, r sweptCheck) {
		ended := r.res.Status == conformance.StatusFail || r.res.Status == conformance.StatusError
		if want := fmt.Sprint(teapot); !ended || !strings.Contains(r.res.Message, want) {
			t.Errorf("%s with the answer to its request %d (%s) given status %d: %s\nwant status fail or error naming %s", id, n, r.sent[n-1], teapot, r.res.Line(), want)
		}
	})
}
