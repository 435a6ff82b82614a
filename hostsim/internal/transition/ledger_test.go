package transition

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// setStatus reports whether it moved the row, and the terminal step journals
// "committed" on the call that moved it, not on a later one.
func TestSetStatusReportsWhetherItMovedTheRow(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	op := row.OperationID
	move := func(from, to string) bool {
		var moved bool
		w.write(func(q store.Q) error {
			var err error
			moved, err = setStatus(q, tenant, op, from, to, w.now.UnixNano())
			return err
		})
		return moved
	}
	if move(statusProven, statusCommitted) || w.row(op).Status != statusPrepared {
		t.Fatalf("a move from a status the row is not at: reported moved, or row at %s", w.row(op).Status)
	}

	row = w.dispatched(row)
	if _, err := w.s.backend(c, row); err != nil {
		t.Fatal(err)
	}
	if _, err := w.s.prove(c, row); err != nil {
		t.Fatal(err)
	}
	if _, err := w.s.advance(c, w.row(op)); err != nil {
		t.Fatal(err)
	}
	if err := w.s.terminal(c, w.row(op)); err != nil || w.row(op).Status != statusCommitted {
		t.Fatalf("terminal: %v, row %s", err, w.row(op).Status)
	}
	if n := w.steps(op)["committed"]; n != 1 {
		t.Fatalf("the terminal step that committed the row journaled \"committed\" %d times", n)
	}
	if move(statusProven, statusCommitted) {
		t.Fatalf("a second move from proven reported a move")
	}
}

// LedgerDocuments holds, per tenant and operation, the proof and receipt of
// a committed operation and the rejection of a rejected one, as stored.
func TestLedgerDocumentsAreTheStoredOnes(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReject.Name, Resource: "jobs"})
	var ops []string
	for _, name := range []string{"orders", "jobs"} {
		_, c, p := w.queue(name)
		w.send(a, c, p)
		ops = append(ops, p.OperationID)
	}
	var docs map[string]Documents
	if err := w.st.Read(context.Background(), func(q store.Q) error {
		var err error
		docs, err = LedgerDocuments(q)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("LedgerDocuments holds %d operations, want 2: %v", len(docs), docs)
	}
	committed, rejected := w.row(ops[0]), w.row(ops[1])
	if committed.Status != statusCommitted || rejected.Status != statusRejected {
		t.Fatalf("operations at %s and %s, want committed and rejected", committed.Status, rejected.Status)
	}
	c := docs[tenant+"\x00"+ops[0]]
	if c.Proof == nil || !bytes.Equal(c.Proof, committed.Proof) || !bytes.Equal(c.Receipt, committed.Receipt) || c.Rejection != nil {
		t.Fatalf("the committed operation's documents: %+v", c)
	}
	r := docs[tenant+"\x00"+ops[1]]
	if r.Rejection == nil || !bytes.Equal(r.Rejection, rejected.Rejection) || r.Proof != nil || r.Receipt != nil {
		t.Fatalf("the rejected operation's documents: %+v", r)
	}
}

// A rejection's message says why: the backend's definitive rejection, or, on
// the readback past the acknowledgement deadline, a dispatch the backend
// never acknowledged, naming the deadline.
func TestRejectionMessageSaysWhy(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReject.Name, Resource: "orders"})
	_, c, p := w.queue("orders")
	w.send(a, c, p)
	backendRejected := rejectionOf(t, w.row(p.OperationID))

	_, c, p = w.queue("jobs")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	w.dispatched(row)
	w.now = w.now.Add(w.s.ack)
	if ans := w.s.resolve(c, tenant, row.OperationID, true); ans.err == nil || ans.err.HostCode != "dispatch_not_observed" {
		t.Fatalf("the readback past the deadline: %d %v %s", ans.status, ans.err, ans.body)
	}
	notObserved := rejectionOf(t, w.row(row.OperationID))

	for _, tc := range []struct {
		e         *wire.Error
		want, not string
		code      string
	}{
		{backendRejected, "the backend definitively rejected it.", "acknowledg", "backend_rejected"},
		{notObserved, "the backend never acknowledged the dispatch within the host's acknowledgement deadline (1h0m0s), so nothing was applied.",
			"definitively", "dispatch_not_observed"},
	} {
		if tc.e.HostCode != tc.code || !strings.Contains(tc.e.Message, "(failureCode "+tc.code+"): "+tc.want) ||
			strings.Contains(tc.e.Message, tc.not) {
			t.Errorf("the %s rejection says %q (hostCode %s)", tc.code, tc.e.Message, tc.e.HostCode)
		}
	}
}

func rejectionOf(t *testing.T, r *opRow) *wire.Error {
	t.Helper()
	var e wire.Error
	if r.Status != statusRejected || json.Unmarshal(r.Rejection, &e) != nil {
		t.Fatalf("operation %s is %s with rejection %s", r.OperationID, r.Status, r.Rejection)
	}
	return &e
}
