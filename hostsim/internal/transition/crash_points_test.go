package transition

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/fault"
)

// transition.proof-wrong spoils exactly the member it names (observedSpecDigest
// when it names none).
func TestSpoilChangesExactlyTheNamedMember(t *testing.T) {
	d := func(c string) string { return "sha256:" + strings.Repeat(c, 64) }
	good := proof{OperationID: "formtx_" + strings.Repeat("1", 64), TransitionEvidenceDigest: d("a"), ObservedSpecDigest: d("b"),
		UID: "u-orders", Generation: "2", NativeIdentityDigest: d("c"), Committed: true}
	for _, m := range append([]string{""}, fault.ProofMembers...) {
		want := m
		if m == "" {
			want = "observedSpecDigest"
		}
		p := good
		p.spoil(m)
		var a, b map[string]any
		ga, _ := json.Marshal(good)
		gb, _ := json.Marshal(p)
		_ = json.Unmarshal(ga, &a)
		_ = json.Unmarshal(gb, &b)
		var changed []string
		for k := range a {
			if !reflect.DeepEqual(a[k], b[k]) {
				changed = append(changed, k)
			}
		}
		if len(changed) != 1 || changed[0] != want {
			t.Errorf("spoil(%q) changed %v, want only %s", m, changed, want)
		}
	}
}

// stderr runs fn with os.Stderr captured and returns what it wrote.
func stderr(t *testing.T, fn func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	out := make(chan string)
	go func() { b, _ := io.ReadAll(r); out <- string(b) }()
	defer func() { os.Stderr = old }()
	fn()
	w.Close()
	return <-out
}

// transition.hang at a point holds the request (its answer is a dropped
// connection) until the client goes away, and says so on stderr first; at
// another point it does nothing.
func TestHangHoldsUntilTheClientGoesAway(t *testing.T) {
	s := &Service{}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Call{Ctx: ctx, Faults: fault.Fixed(fault.Spec{Fault: fault.TransitionHang.Name, Value: "B"})}
	if cr := crashAt(c, "A", "formtx_x"); cr != nil {
		t.Fatalf("transition.hang=B fired at A: %+v", cr)
	}
	cr := crashAt(c, "B", "formtx_x")
	if cr == nil || cr.hang == nil || cr.exit || cr.point != "B" {
		t.Fatalf("transition.hang=B at B: %+v", cr)
	}
	done := make(chan Answer)
	log := stderr(t, func() {
		go func() { done <- s.finish(answer{crash: cr}) }()
		select {
		case a := <-done:
			t.Fatalf("answered %+v before the client went away", a)
		case <-time.After(50 * time.Millisecond):
		}
		cancel()
		if a := <-done; !a.Drop {
			t.Fatalf("after the client went away: %+v, want a dropped connection", a)
		}
	})
	if !strings.Contains(log, HangMarker+" formtx_x at point B") {
		t.Fatalf("stderr %q lacks the hang marker", log)
	}
}

// transition.exit ends the process (with a line saying where); a plain crash
// only drops the connection.
func TestFinishExitsOnlyAtAnExitPoint(t *testing.T) {
	var codes []int
	s := &Service{Options: Options{Exit: func(code int) { codes = append(codes, code) }}}
	if a := finishWithin(t, s, answer{crash: &crash{point: "C", op: "formtx_x"}}); !a.Drop || len(codes) != 0 {
		t.Fatalf("transition.crash: %+v, exits %v", a, codes)
	}
	log := stderr(t, func() {
		if a := finishWithin(t, s, answer{crash: &crash{point: "C", op: "formtx_x", exit: true}}); !a.Drop {
			t.Fatalf("transition.exit answered %+v", a)
		}
	})
	if len(codes) != 1 || codes[0] != ExitStatus || !strings.Contains(log, "exiting at Form transition point C of formtx_x") {
		t.Fatalf("transition.exit: exits %v, stderr %q", codes, log)
	}
}

// finishWithin is s.finish(a), failing the test instead of hanging it when
// finish does not return: only transition.hang holds an answer.
func finishWithin(t *testing.T, s *Service, a answer) Answer {
	t.Helper()
	done := make(chan Answer, 1)
	go func() { done <- s.finish(a) }()
	select {
	case out := <-done:
		return out
	case <-time.After(3 * time.Second):
		t.Fatalf("finish(%+v) held its answer for 3 s without transition.hang", a.crash)
		return Answer{}
	}
}
