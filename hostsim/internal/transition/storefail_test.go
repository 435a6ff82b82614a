package transition_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// TestStoreFailAtEveryStatementStaysExact fails, in turn, each SQLite data
// statement a Form transition's POST makes (the store.fail fault; the host on
// a database file, so every record is one) and holds the transition to the
// end states of docs/protocol.md#transitions, as the crash matrix does for
// whole writes: the failed POST answers internal_error 500 naming the failed
// statement; the backend never acts twice; and the same request posted again
// either commits (the failure came before the dispatch fence was durable, or
// after the backend's evidence was) or reads indeterminate and, at the
// acknowledgement deadline, is rejected with dispatch_not_observed, its claim
// released, so a new request commits. A step that dropped a statement's error
// would commit a partial write and answer otherwise.
func TestStoreFailAtEveryStatementStaysExact(t *testing.T) {
	classes := map[string]int{}
	for n := 1; ; n++ {
		if n > 100 {
			t.Fatal("a Form transition of more than 100 data statements: the sweep does not end")
		}
		e := newEnv(t, hostsim.Config{DBPath: filepath.Join(t.TempDir(), "sim.db"), AckDeadline: 10 * time.Second})
		e.arm(fmt.Sprintf("store.fail=%d,kind=%s,count=1", n, e.from.Ref.Kind))
		req := e.request()
		op := req.OperationID
		first := e.post(req, nil)
		if first.status == 200 { // n is past the POST's last statement: nothing failed
			if n == 1 {
				t.Fatal("store.fail=1 did not fail the POST's first statement")
			}
			e.verifyCommitted(first, op, 1)
			if fired := e.fired(fmt.Sprintf("store.fail=%d", n)); fired != 0 {
				t.Fatalf("store.fail=%d: the POST committed, yet the fault counted %d firings", n, fired)
			}
			break
		}
		failed := expectErr(t, first, wire.CodeInternalError, "")
		if want := fmt.Sprintf("data statement %d of this request failed", n); !strings.Contains(failed.Message, want) ||
			!strings.Contains(failed.Message, "store.fail") || strings.Contains(failed.Message, "hostsim bug") {
			t.Fatalf("store.fail=%d: %q must name %q and the fault, and call it no bug", n, failed.Message, want)
		}
		if fired := e.fired(fmt.Sprintf("store.fail=%d", n)); fired != 1 {
			t.Fatalf("store.fail=%d: the fault counted %d firings, want 1", n, fired)
		}
		if d := e.dispatches(op); d > 1 {
			t.Fatalf("store.fail=%d: the backend acted %d times", n, d)
		}
		again := e.post(req, nil)
		switch again.status {
		case 200:
			classes["commits on the retry"]++
			e.verifyCommitted(again, op, 1)
			e.endState(true, "3")
			if d := e.dispatches(op); d != 1 {
				t.Fatalf("store.fail=%d: committed with the backend acting %d times, want once", n, d)
			}
		case 202:
			classes["indeterminate, then rejected at the deadline"]++
			if st, d := opStatus(t, again); st != "indeterminate" || !d {
				t.Fatalf("store.fail=%d: the retry answered %s/%v, want indeterminate with the dispatch attempted", n, st, d)
			}
			e.clock.add(10 * time.Second)
			e.rejectAtTheDeadline(n, op)
			e.endState(false, "3")
			e.rev = 3
			next := e.request()
			e.verifyCommitted(e.post(next, nil), next.OperationID, 1)
			e.endState(true, "5")
		default:
			t.Fatalf("store.fail=%d: the retry answered %d %s, want the receipt or an indeterminate operation", n, again.status, again.body)
		}
	}
	if len(classes) < 2 {
		t.Fatalf("the sweep met only %v: a failure both before and after the dispatch fence was expected", classes)
	}
	t.Logf("store.fail over every statement of the POST: %v", classes)
}

// rejectAtTheDeadline reads op back after its acknowledgement deadline, first
// failing each data statement of that readback (the rejection's writes) in
// turn: each failed readback answers 500 naming its statement and leaves the
// operation awaiting evidence, and the readback past its last statement is the
// dispatch_not_observed rejection.
func (e *env) rejectAtTheDeadline(n int, op string) {
	e.t.Helper()
	for m := 1; ; m++ {
		if m > 100 {
			e.t.Fatal("a rejecting readback of more than 100 data statements: the sweep does not end")
		}
		e.arm(fmt.Sprintf("store.fail=%d,kind=%s,count=1", m, e.from.Ref.Kind))
		r := e.readback(op)
		if r.status != 500 {
			if m == 1 {
				e.t.Fatalf("store.fail=%d, then store.fail=1 on the rejecting readback: %d %s, want a 500", n, r.status, r.body)
			}
			e.disarm()
			rej := expectErr(e.t, r, wire.CodeFormIdentityConflict, "dispatch_not_observed")
			checkRejectionDetails(e.t, rej, op, "dispatch_not_observed")
			return
		}
		failed := expectErr(e.t, r, wire.CodeInternalError, "")
		if want := fmt.Sprintf("data statement %d of this request failed", m); !strings.Contains(failed.Message, want) {
			e.t.Fatalf("store.fail=%d on the rejecting readback: %q, want it to name %q", m, failed.Message, want)
		}
		if s := e.state(); len(s.Transitions) != 1 || s.Transitions[0].Status == "rejected" || !s.Transitions[0].AwaitingEvidence {
			e.t.Fatalf("store.fail=%d on the rejecting readback left %+v, want the operation still awaiting evidence", m, s.Transitions)
		}
	}
}
