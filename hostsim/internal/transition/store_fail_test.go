package transition

import (
	"context"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// read runs fn in a read transaction and returns its error.
func (w *world) read(fn func(q store.Q) error) error {
	return w.st.Read(context.Background(), fn)
}

// A ledger whose table cannot be read or written is an error at every access,
// never an absent operation, a lost fence or an empty ledger.
func TestLedgerReportsAStoreThatFails(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	w.write(func(q store.Q) error {
		_, err := q.Exec(`ALTER TABLE transition_ops RENAME TO transition_ops_gone`)
		return err
	})
	for name, fn := range map[string]func(q store.Q) error{
		"getOp":   func(q store.Q) error { _, err := getOp(q, tenant, row.OperationID); return err },
		"listOps": func(q store.Q) error { r, err := listOps(q); return wantErr(r == nil, err) },
		"setDispatched": func(q store.Q) error {
			ok, err := setDispatched(q, tenant, row.OperationID, 1)
			return wantErr(!ok, err)
		},
		"setStatus": func(q store.Q) error {
			ok, err := setStatus(q, tenant, row.OperationID, statusPrepared, statusProven, 1)
			return wantErr(!ok, err)
		},
		"LedgerDocuments": func(q store.Q) error { d, err := LedgerDocuments(q); return wantErr(d == nil, err) },
		"State":           func(q store.Q) error { s, err := w.s.State(q, w.now); return wantErr(s == nil, err) },
	} {
		if err := w.read(fn); err == nil || !strings.Contains(err.Error(), "transition_ops") {
			t.Errorf("%s over a missing ledger table: %v, want its error", name, err)
		}
	}
	// The service reads the ledger first: a POST is an internal error, not a new claim.
	if a := w.s.post(c, p); a.err == nil || a.err.Code != "internal_error" {
		t.Errorf("POST over a missing ledger table: %d %v", a.status, a.err)
	}
}

// A backend whose tables cannot be read fails the State view.
func TestStateReportsABackendThatFails(t *testing.T) {
	w := newWorld(t)
	w.write(func(q store.Q) error {
		_, err := q.Exec(`ALTER TABLE backend_objects RENAME TO backend_objects_gone`)
		return err
	})
	if err := w.read(func(q store.Q) error { s, err := w.s.State(q, w.now); return wantErr(s == nil, err) }); err == nil ||
		!strings.Contains(err.Error(), "backend_objects") {
		t.Fatalf("State over a missing backend table: %v", err)
	}
}

// wantErr is err when the result was also withheld (nil, false), else a
// complaint that a result came with the error.
func wantErr(withheld bool, err error) error {
	if err != nil && !withheld {
		return errResultWithError
	}
	return err
}

var errResultWithError = errorString("a result came back with the error")

type errorString string

func (e errorString) Error() string { return string(e) }
