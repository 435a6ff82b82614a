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
// would commit a partial write and answer otherwise. store.read-fail does the
// same with every SQL read inside the POST's writes (a step that read a
// failed read as "nothing there" would skip its write and answer otherwise).
func TestStoreFailAtEveryStatementStaysExact(t *testing.T) {
	for _, k := range []struct{ fault, says string }{
		{"store.fail", "data statement %d of this request failed"},
		{"store.read-fail", "read %d inside this request's writes failed"},
	} {
		t.Run(k.fault, func(t *testing.T) { sweepStoreFault(t, k.fault, k.says) })
	}
}

func sweepStoreFault(t *testing.T, name, says string) {
	classes := map[string]int{}
	for n := 1; ; n++ {
		if n > 100 {
			t.Fatal("a Form transition of more than 100 data statements: the sweep does not end")
		}
		e := newEnv(t, hostsim.Config{DBPath: filepath.Join(t.TempDir(), "sim.db"), AckDeadline: 10 * time.Second})
		e.arm(fmt.Sprintf("%s=%d,kind=%s,count=1", name, n, e.from.Ref.Kind))
		req := e.request()
		op := req.OperationID
		first := e.post(req, nil)
		if first.status == 200 { // n is past the POST's last statement: nothing failed
			if n == 1 {
				t.Fatalf("%s=1 did not fail the POST's first statement of its kind", name)
			}
			e.verifyCommitted(first, op, 1)
			if fired := e.fired(fmt.Sprintf("%s=%d", name, n)); fired != 0 {
				t.Fatalf("%s=%d: the POST committed, yet the fault counted %d firings", name, n, fired)
			}
			break
		}
		failed := expectErr(t, first, wire.CodeInternalError, "")
		if want := fmt.Sprintf(says, n); !strings.Contains(failed.Message, want) ||
			!strings.Contains(failed.Message, name+" fault") || strings.Contains(failed.Message, "hostsim bug") {
			t.Fatalf("%s=%d: %q must name %q and the fault, and call it no bug", name, n, failed.Message, want)
		}
		if fired := e.fired(fmt.Sprintf("%s=%d", name, n)); fired != 1 {
			t.Fatalf("%s=%d: the fault counted %d firings, want 1", name, n, fired)
		}
		if d := e.dispatches(op); d > 1 {
			t.Fatalf("%s=%d: the backend acted %d times", name, n, d)
		}
		again := e.post(req, nil)
		switch again.status {
		case 200:
			classes["commits on the retry"]++
			e.verifyCommitted(again, op, 1)
			e.endState(true, "3")
			if d := e.dispatches(op); d != 1 {
				t.Fatalf("%s=%d: committed with the backend acting %d times, want once", name, n, d)
			}
		case 202:
			classes["indeterminate, then rejected at the deadline"]++
			if st, d := opStatus(t, again); st != "indeterminate" || !d {
				t.Fatalf("%s=%d: the retry answered %s/%v, want indeterminate with the dispatch attempted", name, n, st, d)
			}
			e.clock.add(10 * time.Second)
			e.rejectAtTheDeadline(n, op, name, says)
			e.endState(false, "3")
			e.rev = 3
			next := e.request()
			e.verifyCommitted(e.post(next, nil), next.OperationID, 1)
			e.endState(true, "5")
		default:
			t.Fatalf("%s=%d: the retry answered %d %s, want the receipt or an indeterminate operation", name, n, again.status, again.body)
		}
	}
	if len(classes) < 2 {
		t.Fatalf("the sweep met only %v: a failure both before and after the dispatch fence was expected", classes)
	}
	t.Logf("%s over every statement of its kind of the POST: %v", name, classes)
}

// rejectAtTheDeadline reads op back after its acknowledgement deadline, first
// failing each data statement of that readback (the rejection's writes) in
// turn: each failed readback answers 500 naming its statement and leaves the
// operation awaiting evidence, and the readback past its last statement (the
// fault armed for it never fires) is the dispatch_not_observed rejection.
func (e *env) rejectAtTheDeadline(n int, op, name, says string) {
	e.t.Helper()
	for m := 1; ; m++ {
		if m > 100 {
			e.t.Fatal("a rejecting readback of more than 100 data statements: the sweep does not end")
		}
		e.arm(fmt.Sprintf("%s=%d,kind=%s,count=1", name, m, e.from.Ref.Kind))
		before := e.fired(fmt.Sprintf("%s=%d", name, m)) // the POST's sweep may have fired it already
		r := e.readback(op)
		if r.status != 500 {
			if m == 1 {
				e.t.Fatalf("%s=%d, then %s=1 on the rejecting readback: %d %s, want a 500", name, n, name, r.status, r.body)
			}
			// past the readback's last statement the fault never fires: a
			// firing here is a failed statement whose error was dropped
			if fired := e.fired(fmt.Sprintf("%s=%d", name, m)) - before; fired != 0 {
				e.t.Fatalf("%s=%d on the rejecting readback: it answered %d, yet the fault counted %d firings", name, m, r.status, fired)
			}
			e.disarm()
			rej := expectErr(e.t, r, wire.CodeFormIdentityConflict, "dispatch_not_observed")
			checkRejectionDetails(e.t, rej, op, "dispatch_not_observed")
			return
		}
		failed := expectErr(e.t, r, wire.CodeInternalError, "")
		if want := fmt.Sprintf(says, m); !strings.Contains(failed.Message, want) {
			e.t.Fatalf("%s=%d on the rejecting readback: %q, want it to name %q", name, m, failed.Message, want)
		}
		if s := e.state(); len(s.Transitions) != 1 || s.Transitions[0].Status == "rejected" || !s.Transitions[0].AwaitingEvidence {
			e.t.Fatalf("%s=%d on the rejecting readback left %+v, want the operation still awaiting evidence", name, m, s.Transitions)
		}
	}
}
