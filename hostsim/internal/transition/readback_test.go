package transition

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The readback takes no body and answers only under the resource the
// operation was posted for: another kind (same group) is not found.
func TestReadbackIsTheOperationsOwnResourceOnly(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	rb := func(edit func(g *Call)) Answer {
		g := *c
		g.Method, g.Body, g.OperationID = "GET", nil, row.OperationID
		edit(&g)
		return w.s.Readback(&g)
	}
	if a := rb(func(*Call) {}); a.Err != nil || a.Status != 202 {
		t.Fatalf("the readback: %d %v", a.Status, a.Err)
	}
	if a := rb(func(g *Call) { g.Body = []byte(`{}`) }); a.Err == nil || a.Err.Code != wire.CodeInvalidArgument ||
		!strings.Contains(a.Err.Message, "takes no body") {
		t.Fatalf("a readback with a body: %d %v", a.Status, a.Err)
	}
	if a := rb(func(g *Call) { g.Kind = "Other" }); a.Err == nil || a.Err.HostCode != "form_transition_operation_not_found" {
		t.Fatalf("a readback under another kind: %d %v", a.Status, a.Err)
	}
}

// Only a dispatched operation has a dispatch time and an ack deadline.
func TestStateDispatchTimesOnlyOnceDispatched(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	state := func() OpState {
		var s *State
		if err := w.read(func(q store.Q) error { var err error; s, err = w.s.State(q, w.now); return err }); err != nil || len(s.Transitions) != 1 {
			t.Fatalf("state: %+v %v", s, err)
		}
		return s.Transitions[0]
	}
	if o := state(); o.DispatchAttempted || o.DispatchedAt != nil || o.AckDeadlinePassed || o.AwaitingEvidence {
		t.Fatalf("an undispatched operation: %+v", o)
	}
	w.dispatched(row)
	if o := state(); !o.DispatchAttempted || o.DispatchedAt == nil || o.AckDeadlinePassed || !o.AwaitingEvidence {
		t.Fatalf("a dispatched operation: %+v", o)
	}
}

// NewRequest refuses a spec it cannot encode, and returns no request with it.
func TestNewRequestRefusesASpecItCannotEncode(t *testing.T) {
	w := newWorld(t)
	tr, from, to := w.marked("at-least-once-queue-0.1-to-0.2")
	r, err := NewRequest(tr, from, to, space, "orders", "u-orders", 1, 1, map[string]any{"x": func() {}})
	if err == nil || r != nil {
		t.Fatalf("NewRequest with a func in the spec: %+v %v", r, err)
	}
}
