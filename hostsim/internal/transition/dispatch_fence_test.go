package transition

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// A POST that read the row before another request won the dispatch fence
// holds a stale row (prepared, not dispatched) and loses the compare-and-set
// (docs/protocol.md#transitions, step 3): no second dispatch step is
// journaled and dispatched_at, from which the acknowledgement deadline runs,
// keeps the winner's time. The winner crashes right after its fence (point
// B), so the row is still prepared when the loser asks: only the
// dispatch_attempted clause of the fence can refuse it there.
func TestDispatchFenceIsWonOnce(t *testing.T) {
	w := newWorld(t)
	_, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	op := row.OperationID
	stale := *row // what a concurrent POST read before the fence below

	c.Faults = fault.Fixed(fault.Spec{Fault: fault.TransitionCrash.Name, Value: "B", Count: 1})
	if a := w.s.dispatch(c, row); a.crash == nil || a.crash.point != "B" {
		t.Fatalf("the winner did not stop at point B: %+v", a)
	}
	won := w.row(op)
	if won.Status != statusPrepared || !won.DispatchAttempted || won.DispatchedAt != w.now.UnixNano() {
		t.Fatalf("after the winning fence: status %s, dispatched %v at %d", won.Status, won.DispatchAttempted, won.DispatchedAt)
	}

	w.now = w.now.Add(time.Minute) // the loser asks later: a re-stamp would move the deadline by a minute
	c.Faults = nil
	a := w.s.dispatch(c, &stale)
	if n := w.steps(op)["B:dispatch-fence"]; n != 1 {
		t.Errorf("the dispatch fence was journaled %d times; want 1 (the loser passed the compare-and-set)", n)
	}
	if got := w.row(op).DispatchedAt; got != won.DispatchedAt {
		t.Errorf("dispatched_at moved from %s to %s: the acknowledgement deadline was re-stamped by the losing POST",
			time.Unix(0, won.DispatchedAt).UTC(), time.Unix(0, got).UTC())
	}
	if n := w.dispatches(op); n != 0 {
		t.Errorf("the losing POST called the backend %d times; only the fence's winner may", n)
	}
	if a.err != nil || a.status != 202 {
		t.Errorf("the loser answered %d %v; want the 202 of an operation awaiting its backend", a.status, a.err)
	}
}

// TestRacingPostsFenceTheDispatchOnce: several POSTs of one claimed,
// undispatched operation race (docs/protocol.md#transitions, step 3). A write
// transaction holds the store while they start, so every one of them reads
// the row undispatched and then queues for the fence. The one that wins it
// crashes right after (transition.crash=B, count 1), so the row is still
// prepared when the others reach the fence: they must all lose it. One
// dispatch step is journaled, the backend is never called, and dispatched_at
// (from which the acknowledgement deadline runs) stays the winner's: the
// clock moves on every reading, so a loser's re-stamp shows.
func TestRacingPostsFenceTheDispatchOnce(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	w.s.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); w.now = w.now.Add(time.Millisecond); return w.now }
	_, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	op := row.OperationID
	armory, err := fault.NewArmory(context.Background(), w.st, []fault.Spec{{Fault: fault.TransitionCrash.Name, Value: "B", Count: 1}})
	if err != nil {
		t.Fatal(err)
	}

	held, release := make(chan struct{}), make(chan struct{})
	go func() {
		_ = w.st.Write(context.Background(), func(store.Q) error { close(held); <-release; return nil })
	}()
	<-held
	var wg sync.WaitGroup
	answers := make([]answer, 8)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			racer := &Call{Ctx: context.Background(), Tenant: tenant, Principal: "alice", Method: "POST",
				Faults: armory.Request(fmt.Sprintf("req-%d", i), "", "")}
			answers[i] = w.s.post(racer, p)
		}()
	}
	time.Sleep(50 * time.Millisecond) // every POST is waiting to read the row
	close(release)
	wg.Wait()

	crashed := 0
	for i, a := range answers {
		switch {
		case a.crash != nil:
			crashed++
		case a.err != nil || a.status != 202:
			t.Errorf("POST %d answered %d %v; want the 202 of an operation awaiting its backend", i, a.status, a.err)
		}
	}
	if crashed != 1 {
		t.Errorf("%d POSTs crashed after the fence; want exactly its one winner", crashed)
	}
	if n := w.steps(op)["B:dispatch-fence"]; n != 1 {
		t.Errorf("the dispatch fence was journaled %d times; want 1 (a POST that read the row undispatched passed it again)", n)
	}
	if n := w.dispatches(op); n != 0 {
		t.Errorf("the backend was called %d times; the fence's winner crashed before calling it and no loser may", n)
	}
	if at, fenced := w.row(op).DispatchedAt, w.fenceTime(op); at >= fenced {
		t.Errorf("dispatched_at is %s, after the dispatch step journaled at %s: a losing POST re-stamped it",
			time.Unix(0, at).UTC(), time.Unix(0, fenced).UTC())
	}
}

// fenceTime is when the (first) dispatch step of op was journaled, a clock
// reading after the winner stamped dispatched_at in the same transaction.
func (w *world) fenceTime(op string) int64 {
	w.t.Helper()
	events, _ := w.j.Since(context.Background(), 0, 1000)
	for _, e := range events {
		var d struct{ Step, OperationID string }
		if e.Type == "transition" && json.Unmarshal(e.Data, &d) == nil && d.OperationID == op && d.Step == "B:dispatch-fence" {
			at, err := time.Parse(time.RFC3339Nano, e.At)
			if err != nil {
				w.t.Fatal(err)
			}
			return at.UnixNano()
		}
	}
	return 0
}
