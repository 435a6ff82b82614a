package transition_test

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim"
)

// TestConcurrentPostsDispatchOnce: the same request POSTed many times at once
// (and read back meanwhile) reaches the backend once; every 200 is the same
// receipt and nothing else but 202 is answered.
func TestConcurrentPostsDispatchOnce(t *testing.T) {
	e := newEnv(t, hostsim.Config{AckDeadline: time.Hour})
	req := e.request()
	var wg sync.WaitGroup
	replies := make([]*reply, 12)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%3 == 2 {
				replies[i] = e.readback(req.OperationID)
			} else {
				replies[i] = e.post(req, nil)
			}
		}()
	}
	wg.Wait()
	var receipt []byte
	for _, r := range replies {
		switch r.status {
		case 200:
			if receipt != nil && !bytes.Equal(receipt, r.body) {
				t.Fatalf("two receipts:\n%s\n%s", receipt, r.body)
			}
			receipt = r.body
		case 202, 404: // still unresolved, or read back before the first POST stored it
		default:
			t.Fatalf("%s: %d %s", r.what, r.status, r.body)
		}
	}
	final := e.readback(req.OperationID)
	e.verifyCommitted(final, req.OperationID, 1)
	if receipt != nil && !bytes.Equal(receipt, final.body) {
		t.Fatal("the readback differs from a concurrent answer")
	}
	if n := e.dispatches(req.OperationID); n != 1 {
		t.Fatalf("dispatched %d times", n)
	}
	e.endState(true, "3")
}

// TestResetEmptiesTheLedger: POST /_sim/reset empties the ledger, the claims,
// the backend and the dispatch counters.
func TestResetEmptiesTheLedger(t *testing.T) {
	e := newEnv(t, hostsim.Config{})
	req := e.request()
	e.arm("transition.crash=A,count=1")
	e.post(req, nil)
	if s := e.state(); len(s.Transitions) != 1 || s.Resources[0].Claim != req.OperationID {
		t.Fatalf("before reset: %+v", s)
	}
	r, err := client.Post(e.url+"/_sim/reset", "application/json", nil)
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("reset: %v %v", err, r)
	}
	r.Body.Close()
	if s := e.state(); len(s.Transitions) != 0 || len(s.Resources) != 0 {
		t.Fatalf("after reset: %+v", s)
	}
	if n := e.dispatches(req.OperationID); n != 0 {
		t.Fatalf("dispatch counter survived the reset: %d", n)
	}
	expectErrOp(t, e, req.OperationID)
}

func expectErrOp(t *testing.T, e *env, op string) {
	t.Helper()
	if r := e.readback(op); r.status != 404 {
		t.Fatalf("readback after reset: %d %s", r.status, r.body)
	}
}
