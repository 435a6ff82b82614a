package selftest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
)

// liesFile records, for the checks that pass against hostsim full, answers that
// lie and how the check ends when it gets one (TestEachCheckCatchesTheLiesRecordedForIt).
const liesFile = "testdata/lies.txt"

// answer is one answer a check got, as the sweep's transport keeps it.
type answer struct {
	n      int    // the number of its request among the running check's (0: before the checks)
	target string // "GET /v1beta1/..." (method and path of its request)
	status int
	header http.Header
	body   []byte
}

// lieKind is one way an answer lies. A kind that names a member key ("alter:uid")
// tells its lie about every outermost member of that name in the answer's body;
// the others tell it about the whole answer. tell gives the lying answer, or
// false when a cannot tell this lie (no such member, no earlier answer to replay).
type lieKind struct {
	name   string
	perKey bool
	tell   func(a answer, key string, earlier []answer) (answer, bool)
}

// lieKinds are the lies, as data: each is an answer a conformant host never
// gives in the place of the one it gave.
var lieKinds = []lieKind{
	// another value of the member's kind and grammar: a generation one up, a uid
	// or digest with its last character changed, a boolean flipped
	{"alter", true, func(a answer, key string, _ []answer) (answer, bool) {
		return editMembers(a, key, func(v []byte) ([]byte, bool) { return altered(v) })
	}},
	// the value the member had in the latest earlier answer where it differed:
	// another resource's uid, an earlier revision, the last answer's requestId
	{"previous", true, func(a answer, key string, earlier []answer) (answer, bool) {
		return editMembers(a, key, func(v []byte) ([]byte, bool) {
			for i := len(earlier) - 1; i >= 0; i-- {
				for _, m := range members(earlier[i].body) {
					if w := earlier[i].body[m.vstart:m.vend]; m.key == key && w[0] == '"' && v[0] == '"' && !bytes.Equal(w, v) {
						return w, true
					}
				}
			}
			return nil, false
		})
	}},
	// an array or object member left out (a missing scalar is the strict
	// decoding's, told by "member" below)
	{"drop", true, func(a answer, key string, _ []answer) (answer, bool) {
		ms := outermost(members(a.body), key)
		b, told := a.body, false
		for _, m := range ms {
			if c := b[m.vstart]; c == '[' || c == '{' {
				b, told = dropMember(b, m), true
			}
		}
		a.body = b
		return a, told
	}},
	// an array one element short
	{"shrink", true, func(a answer, key string, _ []answer) (answer, bool) {
		return editMembers(a, key, func(v []byte) ([]byte, bool) {
			if v[0] != '[' {
				return nil, false
			}
			els := elements(v)
			switch len(els) {
			case 0:
				return nil, false
			case 1:
				return []byte("[]"), true
			}
			return splice(v, els[len(els)-2][1], els[len(els)-1][1], nil), true
		})
	}},
	// an array with its first element twice
	{"grow", true, func(a answer, key string, _ []answer) (answer, bool) {
		return editMembers(a, key, func(v []byte) ([]byte, bool) {
			if v[0] != '[' {
				return nil, false
			}
			els := elements(v)
			if len(els) == 0 {
				return nil, false
			}
			first := v[els[0][0]:els[0][1]]
			return splice(v, els[0][0], els[0][0], append(append([]byte{}, first...), ',')), true
		})
	}},
	// an object answer with a member the protocol does not define
	{"member", false, func(a answer, _ string, _ []answer) (answer, bool) {
		b := bytes.TrimSpace(a.body)
		if len(b) < 2 || b[0] != '{' || members(b) == nil {
			return a, false
		}
		sep := ","
		if bytes.Equal(bytes.Join(bytes.Fields(b), nil), []byte("{}")) {
			sep = ""
		}
		a.body = splice(b, 1, 1, []byte(`"takokitLie":true`+sep))
		return a, true
	}},
	// the latest earlier answer to the same method and path, where it differed,
	// given again whole (status, headers, body): a stale read, a replayed receipt
	{"replay", false, func(a answer, _ string, earlier []answer) (answer, bool) {
		for i := len(earlier) - 1; i >= 0; i-- {
			if e := earlier[i]; e.target == a.target && (e.status != a.status || !bytes.Equal(e.body, a.body)) {
				e.header = e.header.Clone()
				return e, true
			}
		}
		return a, false
	}},
	// an ETag where there was none, another where there was one
	{"etag", false, func(a answer, _ string, _ []answer) (answer, bool) {
		a.header = a.header.Clone()
		if e := a.header.Get(wire.HeaderETag); e != "" {
			a.header.Set(wire.HeaderETag, `"`+otherString(strings.Trim(e, `"`))+`"`)
		} else {
			a.header.Set(wire.HeaderETag, `"1"`)
		}
		return a, true
	}},
	// a 204 with a body
	{"body", false, func(a answer, _ string, _ []answer) (answer, bool) {
		if a.status != http.StatusNoContent {
			return a, false
		}
		a.body = []byte(`{}`)
		return a, true
	}},
}

// editMembers replaces the value of every outermost member named key by what
// edit gives for it; told is false when edit gave nothing for all of them. A
// revision's lie moves the ETag with it when the ETag quoted it (the ETag rule
// is a check of its own): what the check then reads is the lie about the revision.
func editMembers(a answer, key string, edit func(v []byte) ([]byte, bool)) (answer, bool) {
	b, told := a.body, false
	etag := a.header.Get(wire.HeaderETag)
	for _, m := range outermost(members(a.body), key) {
		v := b[m.vstart:m.vend]
		w, ok := edit(v)
		if !ok {
			continue
		}
		if key == "revision" && etag == `"`+strings.Trim(string(v), `"`)+`"` {
			a.header = a.header.Clone()
			a.header.Set(wire.HeaderETag, `"`+strings.Trim(string(w), `"`)+`"`)
		}
		b, told = splice(b, m.vstart, m.vend, w), true
	}
	a.body = b
	return a, told
}

// tellLie gives the answer lie (a kind, or kind:key) tells in a's place.
func tellLie(lie string, a answer, earlier []answer) (answer, bool) {
	name, key, _ := strings.Cut(lie, ":")
	for _, k := range lieKinds {
		if k.name == name && k.perKey == (key != "") {
			return k.tell(a, key, earlier)
		}
	}
	return a, false
}

// liesFor lists every lie a can tell, given the answers before it: each
// whole-answer kind that applies, then for each member key of its body (in the
// order they first appear) each per-key kind that applies.
func liesFor(a answer, earlier []answer) []string {
	var out []string
	for _, k := range lieKinds {
		if !k.perKey {
			if _, ok := k.tell(a, "", earlier); ok {
				out = append(out, k.name)
			}
		}
	}
	var keys []string
	for _, m := range members(a.body) {
		if !slices.Contains(keys, m.key) {
			keys = append(keys, m.key)
		}
	}
	for _, key := range keys {
		for _, k := range lieKinds {
			if k.perKey {
				if _, ok := k.tell(a, key, earlier); ok {
					out = append(out, k.name+":"+key)
				}
			}
		}
	}
	return out
}

// lieEntry is one line of liesFile: check id, the answer lied about (its
// request's number in the check and masked target), the lie, and how the check
// ends (status and masked message, as TestEachCheckEndsAsRecordedOnShapedHosts
// masks it).
type lieEntry struct {
	id     string
	n      int
	target string
	lie    string
	ending string
}

func (e lieEntry) String() string {
	return fmt.Sprintf("%s\t%d\t%s\t%s\t%s", e.id, e.n, e.target, e.lie, e.ending)
}

func ending(r conformance.Result) string {
	msg := runLocal.ReplaceAllString(maskRandom(r.Message), "#")
	msg = cut.ReplaceAllString(msg, "…")
	msg = sourceDir.ReplaceAllString(msg, "(at ")
	msg = concurrentNth.ReplaceAllString(msg, "$1 # of")
	return fmt.Sprintf("%s: %s", r.Status, oneLine.Replace(msg))
}

// cut is the word an excerpt of an answer ends in: where the excerpt stops
// depends on how long the masked values before it were.
var cut = regexp.MustCompile(`\S*…`)

// sourceDir is where a runner bug's source file lies: the checkout's, not the
// bug's.
var sourceDir = regexp.MustCompile(`\(at [^)\s]*/`)

// runLocal is what differs between two runs of one lie besides the random
// names: the test server's port, the number of the space (one per run of the
// runner) and of a name (concurrent requests take them in the order they come).
var runLocal = regexp.MustCompile(`127\.0\.0\.1:\d+|(?:sweep)-#-\d+|-#-\d+`)

// concurrentNth is which of a check's concurrent requests an answer's lie reached
// first: the host's scheduler decides it.
var concurrentNth = regexp.MustCompile(`(concurrent \S+) \d+ of`)

// TestEachCheckCatchesTheLiesRecordedForIt: a check proves its rule only if it
// fails a host that breaks it, and the conformance self-test's negatives give
// each check one such host. Here each check that passes against hostsim full
// runs again, once per answer recorded for it in testdata/lies.txt, with that
// one answer lying (lieKinds: a member given another value or an earlier
// answer's, an array shortened or grown, a member added or left out, a stale
// answer replayed, an ETag added or changed, a body on a 204), and must end as
// recorded: failed or errored, with the recorded message. A check that stopped
// looking at what it read passes instead, or ends at a later assertion.
//
// The file keeps, of every lie every answer of every check can tell, one per
// way a check ends (its message with the values masked): the lies that reach
// each of a check's failures. TAKOKIT_UPDATE_GOLDEN=1 tells every lie again
// (some minutes) and records the file anew; review its diff
// (docs/guides/conformance.md, "Lying answers").
func TestEachCheckCatchesTheLiesRecordedForIt(t *testing.T) {
	t.Parallel() // its own host
	only := areaChecks(t)
	if os.Getenv("TAKOKIT_UPDATE_GOLDEN") == "1" {
		recordLies(t, only)
		return
	}
	want := readLies(t)
	var plan []alteration
	var entries []lieEntry
	for _, e := range want {
		if only == nil || slices.Contains(only, e.id) {
			plan, entries = append(plan, alteration{id: e.id, n: e.n, lie: e.lie}), append(entries, e)
		}
	}
	if len(plan) == 0 {
		if only == nil {
			t.Fatalf("%s records no lie", liesFile)
		}
		// mage mutate narrows the test to the checks whose code a mutant changed
		t.Skipf("no lie is recorded for %v in %s", only, liesFile)
	}
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", "full")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	for i, r := range tellEach(ctx, t, sim, cat, plan) {
		e := entries[i]
		switch {
		case !r.fired || len(r.sent) < e.n:
			t.Errorf("%s ended after %d requests, before its request %d (%s) could be answered with the lie %s; record again if the check changed",
				e.id, len(r.sent), e.n, e.target, e.lie)
		case r.concurrent[e.n-1]:
			t.Errorf("%s: its request %d (%s) was sent while an earlier one was unanswered, so which request is number %d is the scheduler's choice; record again (the recording tells no lie to such a request)", e.id, e.n, masked(r.sent[e.n-1]), e.n)
		case masked(r.sent[e.n-1]) != e.target:
			t.Errorf("%s: its request %d is %s, recorded %s; record again if the check changed", e.id, e.n, masked(r.sent[e.n-1]), e.target)
		case !r.told:
			t.Errorf("%s: the answer to its request %d (%s) cannot tell the lie %s any more", e.id, e.n, e.target, e.lie)
		case ending(r.res) != e.ending:
			t.Errorf("%s with the answer to its request %d (%s) lying (%s):\n got %s\nwant %s", e.id, e.n, e.target, e.lie, ending(r.res), e.ending)
		}
	}
}

// tellEach tells the plan's lies in order, each check's on the host reset
// before it (warmTold): what a check sends depends on what the checks before it
// left, so its lies end as recorded whichever checks run beside it (mage
// mutate runs one check's).
func tellEach(ctx context.Context, t *testing.T, sim *Sim, cat *catalog.Catalog, plan []alteration) []sweptCheck {
	t.Helper()
	var out []sweptCheck
	for _, g := range byCheck(plan) {
		if err := sim.Reset(ctx); err != nil {
			t.Fatal(err)
		}
		out = append(out, warmTold(ctx, t, sim, cat, plan[g[0]:g[1]], false, 0)...)
	}
	return out
}

// byCheck splits the plan into its runs of one check's lies, as [from, to).
func byCheck(plan []alteration) [][2]int {
	var groups [][2]int
	for from := 0; from < len(plan); {
		to := from + 1
		for to < len(plan) && plan[to].id == plan[from].id {
			to++
		}
		groups, from = append(groups, [2]int{from, to}), to
	}
	return groups
}

// lieTimeout bounds each check a lie is told to while recording: on hostsim a
// check ends in well under a second, and a lie that leaves one waiting ends it
// errored (none of those is recorded). The test tells the recorded lies with
// the sweep's usual 20 s: a loaded machine (mage mutate's) is no verdict.
const lieTimeout = 3 * time.Second

// warmTold tells the lies of one check's plan after one run of the check
// telling none: the runs after a check's first find what it left (an artifact
// it uploaded is not uploaded again), so every lie is told to a check that
// finds the host as every run after the first does.
func warmTold(ctx context.Context, t *testing.T, sim *Sim, cat *catalog.Catalog, plan []alteration, keep bool, timeout time.Duration) []sweptCheck {
	t.Helper()
	warm := append([]alteration{{id: plan[0].id}}, plan...)
	return sweepWith(ctx, t, sim.URL, cat, warm, &sweepTransport{lies: true, keep: keep, timeout: timeout})[1:]
}

// readLies parses liesFile.
func readLies(t *testing.T) []lieEntry {
	t.Helper()
	b, err := os.ReadFile(liesFile)
	if err != nil {
		t.Fatalf("no recorded lies (%v): record them with TAKOKIT_UPDATE_GOLDEN=1 go test ./selftest -run TestEachCheckCatchesTheLiesRecordedForIt and review the file", err)
	}
	var out []lieEntry
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		f := strings.SplitN(l, "\t", 5)
		if len(f) != 5 {
			f = []string{l, "", "", "", ""}
		}
		n, err := strconv.Atoi(f[1])
		if f[4] == "" || err != nil || n < 1 {
			t.Fatalf("%s:%d: want id, request number, target, lie and ending separated by tabs, got %q", liesFile, i+1, l)
		}
		out = append(out, lieEntry{id: f[0], n: n, target: f[2], lie: f[3], ending: f[4]})
	}
	return out
}

// template is a check's ending with every value masked: two lies that end a
// check with one message about other values reach the same failure.
// Request targets and setup steps are masked too: a step's decoding fails in
// one place whatever it set up.
var template = regexp.MustCompile(`"[^"]*"|'[^']*'|\d+|#|[{/][^\s:]*|setting up \S+`)

// liedAbout is the member a lie is told about ("reason" of "alter:reason"), ""
// for a lie about the whole answer.
func liedAbout(lie string) string {
	_, key, _ := strings.Cut(lie, ":")
	return key
}

// recordLies tells every lie every answer of every passing check can tell, on
// two hosts side by side, and keeps the first lie per member lied about and
// way each check ends other than passing: a check that names two members'
// values in one message ("got Ready=%s/%s") fails a lie about either with one
// template, and only a lie about each alone shows that it looks at both. It
// tells those again twice as the test will (tellEach), keeps the ones told to
// the same request that end the same way each time, and writes liesFile.
// Narrowed to some checks (only), it rewrites only their lines (mergeLies).
func recordLies(t *testing.T, only []string) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Minute)
	defer cancel()
	// run tells the plan's lies on two hosts side by side, each check's (a run
	// of the plan with one id) on a host reset before it, as the test tells them
	run := func(plan []alteration, keep bool) []sweptCheck {
		groups := byCheck(plan)
		const hosts = 2
		out := make([]sweptCheck, len(plan))
		var mu sync.Mutex
		next := 0 // the next group a host takes
		var wg sync.WaitGroup
		for range hosts {
			wg.Go(func() {
				sim, err := startInProcess(ctx, "", "full")
				if err != nil {
					t.Error(err)
					return
				}
				defer sim.Stop()
				for {
					mu.Lock()
					g := next
					next++
					mu.Unlock()
					if g >= len(groups) {
						return
					}
					if err := sim.Reset(ctx); err != nil {
						t.Error(err)
						return
					}
					from, to := groups[g][0], groups[g][1]
					began := time.Now()
					copy(out[from:to], warmTold(ctx, t, sim, cat, plan[from:to], keep, lieTimeout))
					if d := time.Since(began); d > 20*time.Second {
						t.Logf("%s: %d runs took %s", plan[from].id, to-from, d.Round(time.Second))
					}
				}
			})
		}
		wg.Wait()
		return out
	}
	var plan []alteration
	for _, b := range run(unaltered(only), true) {
		if b.res.Status != conformance.StatusPass {
			continue
		}
		// which of a check's concurrent requests is sent n-th, and which earlier
		// answers it may replay, is the scheduler's choice: a lie told to
		// "request n" would reach another request on a busy machine
		// (concurrent-unrelated-mutation's second prepare was a PUT 2 runs in 100
		// beside three other runs). So a check that sends requests concurrently
		// is lied to only after its last concurrent request and one more: the
		// last of them may have been sent once the others were answered (its
		// eighth PUT, recorded as request 16 and sent concurrently in the test)
		after := 0
		for i, c := range b.concurrent {
			if c {
				after = i + 2
			}
		}
		for n := after; n < len(b.answers); n++ {
			for _, lie := range liesFor(b.answers[n], b.answers[:n]) {
				plan = append(plan, alteration{id: b.res.ID, n: n + 1, lie: lie})
			}
		}
	}
	t.Logf("%d lies to tell", len(plan))
	start := time.Now()
	seen := map[string]bool{}
	var keep []alteration
	var entries []lieEntry
	stat := map[string]int{}
	for i, r := range run(plan, false) {
		stat[fmt.Sprint(r.told, r.fired, r.res.Status)]++
		if !r.told || r.res.Status == conformance.StatusPass {
			continue
		}
		a := plan[i]
		if k := a.id + " " + liedAbout(a.lie) + " " + template.ReplaceAllString(ending(r.res), "_"); !seen[k] {
			seen[k] = true
			keep = append(keep, a)
			entries = append(entries, lieEntry{id: a.id, n: a.n, target: masked(r.sent[a.n-1]), lie: a.lie, ending: ending(r.res)})
		}
	}
	t.Logf("told, fired, status: %v (%s)", stat, time.Since(start).Round(time.Second))
	sim, err := startInProcess(ctx, "", "full")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	// told again twice, alone: an entry is recorded only when both times the
	// lie's request is the recorded one and the check ends as recorded (a check
	// whose concurrent requests are numbered otherwise from run to run would
	// make the test tell its lie to another request)
	otherwise := make([]bool, len(keep))
	for range 2 {
		for i, r := range tellEach(ctx, t, sim, cat, keep) {
			e := entries[i]
			if !otherwise[i] && (!r.told || len(r.sent) < e.n || masked(r.sent[e.n-1]) != e.target || ending(r.res) != e.ending) {
				otherwise[i] = true
				t.Logf("ended otherwise when told again: %s\n got %s", e, ending(r.res))
			}
		}
	}
	var recorded []lieEntry
	unstable := 0
	for i, e := range entries {
		if otherwise[i] {
			unstable++
			continue
		}
		recorded = append(recorded, e)
	}
	t.Logf("%d ways checks end on a lie; %d of them ended otherwise (or at another request) when told again twice, alone (not recorded)", len(entries), unstable)
	if len(recorded) == 0 {
		t.Fatal("no lie ended a check: nothing to record")
	}
	if only != nil {
		// narrowed (TAKOKIT_SELFTEST_CHECKS): only those checks' lines change
		recorded = mergeLies(readLies(t), recorded, only)
		t.Logf("narrowed to %v: the other checks' lines of %s are kept as they are", only, liesFile)
	}
	lines := make([]string, len(recorded))
	for i, e := range recorded {
		lines[i] = e.String()
	}
	if err := os.WriteFile(liesFile, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mergeLies is old with the entries of the checks in only replaced by fresh's:
// a check's new entries take the place of its first old one, and a check the
// file did not hold yet goes at the end.
func mergeLies(old, fresh []lieEntry, only []string) []lieEntry {
	byID := map[string][]lieEntry{}
	for _, e := range fresh {
		byID[e.id] = append(byID[e.id], e)
	}
	var out []lieEntry
	placed := map[string]bool{}
	for _, e := range old {
		if !slices.Contains(only, e.id) {
			out = append(out, e)
			continue
		}
		if !placed[e.id] {
			placed[e.id] = true
			out = append(out, byID[e.id]...)
		}
	}
	for _, e := range fresh {
		if !placed[e.id] {
			out = append(out, e)
		}
	}
	return out
}
