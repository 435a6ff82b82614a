package selftest

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// runnerFrames is the prefix of the conformance runner's own functions in a stack.
const runnerFrames = "github.com/takokit/takokit/conformance."

// callSite is where in the runner a request was sent from: the runner's frames on
// the sending goroutine's stack, each function with its line. The runner's client
// calls the transport on the caller's goroutine, so these are the check's own
// calls down to the request; a loop's turns share one site.
func callSite() string {
	var pcs [128]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs[:])])
	var b strings.Builder
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, runnerFrames) {
			fmt.Fprintf(&b, "%s:%d\n", f.Function, f.Line)
		}
		if !more {
			return b.String()
		}
	}
}

// repeats marks each request of a check's unaltered run that repeats an earlier one
// of the same run: sent from the same site of the runner (callSite) to the same
// target (sameRequest: the same method and path, names masked). The sweeps alter
// the first only: the repeat's failure or odd status reaches the same lines of the
// check, which handle it as they handled the first's (the setup of a second world
// of handler-gated-attachments, a second Form's fixture of the same kind). A check
// that sends requests at once on purpose (concurrent) repeats nothing: each of its
// requests is one party to the race it measures. docs/decisions.md, "The sweeps
// alter a repeated request once".
func repeats(c sweptCheck) []bool {
	out := make([]bool, len(c.sent))
	if slices.Contains(concurrent, c.res.ID) {
		return out
	}
	seen := map[string]bool{}
	for i, r := range c.sent {
		k := c.sites[i] + sameRequest(r)
		out[i], seen[k] = seen[k], true
	}
	return out
}

// sitesKnown fails t when a request of a check's unaltered run came from no frame of
// the runner: with its site empty, repeats would take every request to the same
// target for one site and alter only the first.
func sitesKnown(t *testing.T, base []sweptCheck) {
	t.Helper()
	for _, c := range base {
		for i, site := range c.sites {
			if site == "" {
				t.Fatalf("%s: its request %d (%s) was sent from no function of %s*: the sweep cannot tell it from a repeat", c.res.ID, i+1, c.sent[i], runnerFrames)
			}
		}
	}
}

// TestRepeatsAltersASiteAndTargetOnce: a request repeats an earlier one when both came
// from one site of the runner to one target, the random parts of its name aside;
// another site, another target or a check that races its requests on purpose
// repeats nothing.
func TestRepeatsAltersASiteAndTargetOnce(t *testing.T) {
	t.Parallel()
	put := func(name string) string { return "PUT /apis/x/resources/g/v1/Queue/" + name }
	c := sweptCheck{res: conformance.Result{ID: "handler-gated-attachments"},
		sent: []string{put("q-0123456789abcdef-1"), put("q-fedcba9876543210-2"), put("q-0123456789abcdef-3"),
			"PUT /apis/x/resources/g/v1/Bucket/b-0123456789abcdef-4", put("q-00112233445566ff-5"), put("q-0123456789abcdef-6")},
		sites: []string{"a\n", "a\n", "b\n", "a\n", "a\n", "b\n"}}
	if got, want := repeats(c), []bool{false, true, false, false, true, true}; !slices.Equal(got, want) {
		t.Errorf("repeats = %v, want %v", got, want)
	}
	c.res.ID = concurrent[0]
	if got := repeats(c); slices.Contains(got, true) {
		t.Errorf("repeats of %s = %v, want none: its requests race on purpose", c.res.ID, got)
	}
}
