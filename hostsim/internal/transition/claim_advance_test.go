package transition

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The references of the spec must resolve under toForm before the claim: a
// transition pointing a reference at a target that does not exist is refused
// and stores nothing (no operation, no claim, no revision move).
func TestClaimRefusesAReferenceThatDoesNotResolve(t *testing.T) {
	w := newWorld(t)
	m := w.movedEndpoint("no-such-worker", false)
	res, c, p := m.res, m.c, m.p
	row, cr, e, err := w.s.claim(c, p)
	if err != nil || cr != nil || e == nil || !strings.Contains(e.Message, "no-such-worker") {
		t.Fatalf("claim with an unresolvable reference: row %+v, crash %+v, refusal %v, error %v", row, cr, e, err)
	}
	if e.Code == wire.CodeInternalError {
		t.Fatalf("refused as an internal error: %v", e)
	}
	if got := w.resource(res.UID); got.Revision != res.Revision || got.ClaimOp != "" {
		t.Fatalf("the refused claim moved the resource: %+v", got)
	}
	if r, err := w.s.op(c.Ctx, tenant, p.OperationID); err != nil || r != nil {
		t.Fatalf("the refused claim stored an operation: %+v %v", r, err)
	}
}

// proven is a queue transition proven (point D) but not advanced.
func (w *world) proven(name string) (*store.Resource, *Call, *opRow) {
	w.t.Helper()
	res, c, p := w.queue(name)
	row, _, e, err := w.s.claim(c, p)
	must(w.t, e, err)
	row = w.dispatched(row)
	if _, err := w.s.backend(c, row); err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.s.prove(c, row); err != nil {
		w.t.Fatal(err)
	}
	return res, c, w.row(row.OperationID)
}

// The advance moves the resource only under the operation's own claim.
func TestAdvanceNeedsTheOperationsClaim(t *testing.T) {
	w := newWorld(t)
	res, c, row := w.proven("orders")
	w.write(func(q store.Q) error {
		r := w.resourceIn(q, res.UID)
		r.ClaimOp = "formtx_" + strings.Repeat("9", 64)
		return store.UpdateResource(q, r)
	})
	before := w.resource(res.UID)
	if _, err := w.s.advance(c, row); err == nil || !strings.Contains(err.Error(), "the resource is not advanced") {
		t.Fatalf("advance under another claim: %v", err)
	}
	if got := w.resource(res.UID); got.Generation != before.Generation || got.Revision != before.Revision || got.DefVersion != before.DefVersion {
		t.Fatalf("the resource moved under another claim: %+v", got)
	}
	if got := w.row(row.OperationID); got.Receipt != nil {
		t.Fatal("a receipt was kept for an advance that did not happen")
	}
}

// The advance recounts the resource's pins from the pins it resolved.
func TestAdvanceRecountsThePins(t *testing.T) {
	w := newWorld(t)
	res, c, row := w.proven("orders")
	w.write(func(q store.Q) error {
		r := w.resourceIn(q, res.UID)
		r.Pins = 3 // a stale count: the queue references nothing
		return store.UpdateResource(q, r)
	})
	if _, err := w.s.advance(c, row); err != nil {
		t.Fatal(err)
	}
	if got := w.resource(res.UID); got.Pins != 0 || got.DefVersion == res.DefVersion {
		t.Fatalf("after the advance the resource counts %d pins at %s", got.Pins, got.DefVersion)
	}
}
