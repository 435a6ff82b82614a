package selftest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
)

// recorder is a RoundTripper that writes down every request of a run, in the order
// sent, with what varies by construction (fresh names, keys, digests) masked.
// An Idempotency-Key is written as whether it is new to the check or which of
// the check's requests sent it first ("Idempotency-Key=new", "=req3"): the key
// itself is random, but a check that sends an earlier request's key again
// means a replay (docs/protocol.md#idempotency), and one that does so by
// mistake sends another request than the one recorded.
type recorder struct {
	mu   sync.Mutex
	reqs []string
	keys map[string]int // Idempotency-Key → the number of the check's request that sent it first
}

// oneLine escapes a text's CR and LF, so a recorded message stays on its line.
var oneLine = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// masked is s with what a run draws at random masked, on one line.
func masked(s string) string { return oneLine.Replace(maskRandom(s)) }

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body.Close()
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	var hs []string
	for k, v := range req.Header {
		switch k {
		case "Idempotency-Key":
			hs = append(hs, k+"="+r.keyOf(strings.Join(v, ",")))
			continue
		case "User-Agent", "Accept-Encoding":
			continue
		case "Accept", "Content-Type":
			if len(v) == 1 && v[0] == "application/json" {
				continue // every JSON request's
			}
		}
		hs = append(hs, k+"="+strings.Join(v, ","))
	}
	sort.Strings(hs)
	target := strings.Replace(req.URL.RequestURI(), wire.DefaultLane.APIRoot, conformance.API, 1)
	line := maskRandom(fmt.Sprintf("%s %s [%s]", req.Method, target, strings.Join(hs, " ")))
	r.mu.Lock()
	r.reqs = append(r.reqs, line+" "+maskedBody(body))
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

// maskedBody is a request body on one line, random masked, or when that is longer than a
// line should be, its length and the start of its SHA-256 (taken after masking,
// written after it so the digest itself is not masked).
func maskedBody(body []byte) string {
	b := masked(string(body))
	if len(b) <= 240 {
		return b
	}
	sum := sha256.Sum256([]byte(b))
	return fmt.Sprintf("(%d bytes, sha256 %s)", len(b), base64.RawURLEncoding.EncodeToString(sum[:9]))
}

// keyOf is how key is written for the request being recorded: "new" the first
// time the check sends it, then "req" and the number of the request that sent
// it first.
func (r *recorder) keyOf(key string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if first, ok := r.keys[key]; ok {
		return "req" + strconv.Itoa(first)
	}
	if r.keys == nil {
		r.keys = map[string]int{}
	}
	r.keys[key] = len(r.reqs) + 1 // this request, appended after its line is built
	return "new"
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.reqs
	r.reqs, r.keys = nil, nil
	return out
}

// concurrent lists checks that send some requests at the same time on purpose;
// their sequences are compared as sets.
var concurrent = []string{"concurrent-unrelated-mutation"}

// runRecorded runs the checks ids against sim (all when empty), arming faults
// after the surface read, and returns each check's masked request sequence and result.
func runRecorded(t *testing.T, sim *Sim, cat *catalog.Catalog, ids []string, faults []string) (map[string][]string, map[string]conformance.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if err := sim.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	seqs := map[string][]string{}
	results := map[string]conformance.Result{}
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "det", Only: ids, Transport: rec,
		AfterSurface: func(ctx context.Context) error {
			rec.take() // the surface read is not a check's
			for _, f := range faults {
				if err := sim.ArmFault(ctx, f); err != nil {
					return err
				}
			}
			return nil
		},
		Progress: func(r conformance.Result) {
			seq := rec.take()
			if slices.Contains(concurrent, r.ID) {
				sort.Strings(seq)
			}
			seqs[r.ID] = seq
			r.DurationMs = 0
			r.Message = maskRandom(r.Message)
			if x := r.Exchange; x != nil {
				// The request and its status must repeat; the body carries times.
				r.Exchange = &conformance.Exchange{Request: maskRandom(x.Request), Status: x.Status}
			}
			results[r.ID] = r
		}}
	tokens(&cfg)
	if _, err := conformance.Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	return seqs, results
}

func compareRuns(t *testing.T, what string, s1, s2 map[string][]string, r1, r2 map[string]conformance.Result) {
	t.Helper()
	for id, a := range s1 {
		if !sameResult(r1[id], r2[id]) {
			t.Errorf("%s %s: the two runs disagree:\n  first:  %s: %s\n  second: %s: %s", what, id, r1[id].Status, r1[id].Message, r2[id].Status, r2[id].Message)
		}
		b := s2[id]
		if i := firstDiff(a, b); i >= 0 {
			t.Errorf("%s %s: request %d of %d/%d differs between two runs:\n  first:  %s\n  second: %s", what, id, i+1, len(a), len(b), at(a, i), at(b, i))
		}
	}
}

// sameResult compares two masked results, their exchanges by value.
func sameResult(a, b conformance.Result) bool {
	xa, xb := a.Exchange, b.Exchange
	a.Exchange, b.Exchange = nil, nil
	if a != b || (xa == nil) != (xb == nil) {
		return false
	}
	return xa == nil || (xa.Request == xb.Request && xa.Status == xb.Status)
}

func firstDiff(a, b []string) int {
	for i := 0; i < max(len(a), len(b)); i++ {
		if at(a, i) != at(b, i) {
			return i
		}
	}
	return -1
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "(none)"
}

// TestRunsAreDeterministic runs the whole suite twice against hostsim full, then
// checks whose sub-cases come from a table twice each under their negative, and
// requires the same requests in the same order and the same outcome (the first
// failing sub-case included) both times.
func TestRunsAreDeterministic(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	sim, err := Start(context.Background(), bin, "full")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	s1, r1 := runRecorded(t, sim, cat, nil, nil)
	s2, r2 := runRecorded(t, sim, cat, nil, nil)
	if len(s1) != len(conformance.Table()) {
		t.Fatalf("recorded %d checks, the table has %d", len(s1), len(conformance.Table()))
	}
	compareRuns(t, "positive", s1, s2, r1, r2)

	negs := conformance.Negatives()
	for _, id := range tabledSubcases {
		n := negs[id]
		if n.Profile != "full" {
			t.Fatalf("%s: its negative runs on profile %q; this test starts only full", id, n.Profile)
		}
		s1, r1 := runRecorded(t, sim, cat, []string{id}, n.Faults)
		s2, r2 := runRecorded(t, sim, cat, []string{id}, n.Faults)
		if r1[id].Status != conformance.StatusFail {
			t.Errorf("%s under %v: %s, want fail (its negative)", id, n.Faults, r1[id].Line())
		}
		compareRuns(t, "negative", map[string][]string{id: s1[id]}, s2, r1, r2)
	}
}

// tabledSubcases are checks that run several sub-cases from a Go map and stop at
// the first failure: under their negative every sub-case fails, so the reported
// label is the first one run.
var tabledSubcases = []string{
	"unauthenticated-request-refused",
	"exact-form-ref-fails-closed-on-unknown-definition",
	"update-generation-fence",
	"stale-generation-rejected",
	"observe-fence-exact",
	"delete-revision-fence",
	"apply-headers-required",
	"prepare-requires-update-fence",
	"resource-answers-only-under-its-recorded-form-ref",
	"space-id-grammar-enforced",
	"strict-json-unknown-member-rejected",
	"form-transition-claim-fences-lifecycle",
}
