package selftest

import (
	"encoding/binary"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// runnerFrames is the prefix of the conformance runner's own functions in a stack.
const runnerFrames = "github.com/takokit/takokit/conformance."

// callers are the program counters of the sending goroutine's stack, above the
// transport: what callOf and sentByRunner read, taken once per request. Called from
// sweepTransport.RoundTrip only (the frames it skips).
func callers() []uintptr {
	pcs := make([]uintptr, 128)
	return pcs[:runtime.Callers(3, pcs)]
}

// callOf is what a request of a sweep is, for the sweeps that alter each call once:
// where it was sent from (pcs, the sending goroutine's stack: callers) and what it
// was sent to (sent, names masked: sameRequest). The runner's client calls the
// transport on the caller's goroutine, so two requests sent by the same lines of the
// check, in a loop's turns or in two calls of one helper from one line, are one
// call; the same helper called from another line of the check is another.
func callOf(pcs []uintptr, sent string) string {
	b := make([]byte, 0, 8*len(pcs)+len(sent))
	for _, pc := range pcs {
		b = binary.LittleEndian.AppendUint64(b, uint64(pc))
	}
	return string(b) + " " + sameRequest(sent)
}

// sentByRunner says whether a function of the runner is on the stack pcs (callers).
func sentByRunner(pcs []uintptr) bool {
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, runnerFrames) {
			return true
		}
		if !more {
			return false
		}
	}
}

// firstCalls is, for each distinct call of a check's unaltered run (callOf) in the
// order they came, the number of its first request. The request and status sweeps
// alter each call once, at the first request it sends in the run altered (which
// request that is may move: a run after the first can send fewer, an artifact
// already uploaded): a repeat reaches the same lines of the check, which handle
// its failure or odd status as they handled the first's (the setup of a second
// world of handler-gated-attachments, a second Form's fixture of one kind).
// docs/decisions.md, "The sweeps alter each call once".
func firstCalls(c sweptCheck) []int {
	var firsts []int
	seen := map[string]bool{}
	for i, call := range c.calls {
		if !seen[call] {
			seen[call] = true
			firsts = append(firsts, i+1)
		}
	}
	return firsts
}

// sentByTheRunner fails t when a request of a check's unaltered run came from no
// frame of the runner: the transport would then be called from another goroutine
// than the check's, and callOf would take the check's calls in a loop or from
// different lines for one.
func sentByTheRunner(t *testing.T, base []sweptCheck) {
	t.Helper()
	for _, c := range base {
		if len(c.runner) != len(c.sent) || len(c.calls) != len(c.sent) {
			t.Fatalf("%s: %d requests but %d calls and %d callers recorded: the unaltered run did not record its calls", c.res.ID, len(c.sent), len(c.calls), len(c.runner))
		}
		for i, ok := range c.runner {
			if !ok {
				t.Fatalf("%s: its request %d (%s) was sent from no function of %s*: the sweep cannot tell its calls apart", c.res.ID, i+1, c.sent[i], runnerFrames)
			}
		}
	}
}

// TestFirstCallsTakesACallOnce: requests of one call (the same stack to the same
// target, the random parts of its name aside) are one call; another stack or
// another target is another.
func TestFirstCallsTakesACallOnce(t *testing.T) {
	t.Parallel()
	put := func(name string) string { return "PUT /apis/x/resources/g/v1/Queue/" + name }
	sent := []string{put("q-0123456789abcdef-1"), put("q-fedcba9876543210-2"), put("q-0123456789abcdef-3"),
		"PUT /apis/x/resources/g/v1/Bucket/b-0123456789abcdef-4", put("q-00112233445566ff-5"), put("q-0123456789abcdef-6")}
	stacks := []string{"a", "a", "b", "a", "a", "b"}
	c := sweptCheck{res: conformance.Result{ID: "handler-gated-attachments"}, sent: sent}
	for i, r := range sent {
		c.calls = append(c.calls, stacks[i]+" "+sameRequest(r))
	}
	if got, want := firstCalls(c), []int{1, 3, 4}; !slices.Equal(got, want) {
		t.Errorf("firstCalls = %v, want %v", got, want)
	}
}

// TestCallOfTellsLinesApart: callOf of requests sent from one line in a loop is one
// call; the same request from another line is another.
func TestCallOfTellsLinesApart(t *testing.T) {
	t.Parallel()
	// the transport's caller's frames: callers skips itself, its caller and that one's
	// caller, as RoundTrip calls it under net/http
	via := func(f func() string) string { return f() }
	var loop []string
	for range 2 {
		loop = append(loop, via(func() string { return callOf(callers(), "GET /x") }))
	}
	other := via(func() string { return callOf(callers(), "GET /x") })
	if loop[0] != loop[1] {
		t.Errorf("two turns of one loop gave two calls")
	}
	if other == loop[0] {
		t.Errorf("another line gave the loop's call")
	}
	if via(func() string { return callOf(callers(), "GET /y") }) == via(func() string { return callOf(callers(), "GET /x") }) {
		t.Errorf("two targets gave one call")
	}
}
