package transition

// The transition faults act where docs/protocol.md#faults says, and only
// there: a fault that changes a replay leaves a fresh answer alone, and a
// firing counts once, with the write it shaped. These tests drive the Service
// directly (steps_test.go) with the faults armed in a real Armory over the
// same store, so the fired counts are the ones /_sim/faults would list.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// arm arms specs at run time in an Armory over the world's store.
func (w *world) arm(specs ...fault.Spec) *fault.Armory {
	w.t.Helper()
	a, err := fault.NewArmory(context.Background(), w.st, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, s := range specs {
		if err := s.Validate(); err != nil {
			w.t.Fatal(err)
		}
		if err := a.Arm(context.Background(), s); err != nil {
			w.t.Fatal(err)
		}
	}
	return a
}

var requestSeq int

// send is one POST of p through the algorithm as the lane runs it: a fresh
// fault set from a, the answer, then the request's final flush of firings.
func (w *world) send(a *fault.Armory, c *Call, p *parsed) answer {
	w.t.Helper()
	requestSeq++
	rc := *c
	rc.Faults = a.Request(fmt.Sprintf("req-%d", requestSeq), c.Kind, c.Name)
	ans := w.s.post(&rc, p)
	if err := rc.Faults.Flush(w.st, w.clock); err != nil {
		w.t.Fatal(err)
	}
	return ans
}

// fired is how often a fault (NAME or NAME=VALUE) fired, as the fired counter
// records it (it outlives the fault's arming).
func (w *world) fired(name string) int64 {
	w.t.Helper()
	var n int64
	w.write(func(q store.Q) error {
		c, err := store.CounterValues(q)
		n = c[fault.FiredCounter+name]
		return err
	})
	return n
}

// journaled is the data of every journaled step of op named step.
func (w *world) journaled(op, step string) []map[string]any {
	w.t.Helper()
	events, _ := w.j.Since(context.Background(), 0, 1000)
	var out []map[string]any
	for _, e := range events {
		var d map[string]any
		if e.Type == "transition" && json.Unmarshal(e.Data, &d) == nil && d["operationId"] == op && d["step"] == step {
			out = append(out, d)
		}
	}
	return out
}

// A firing is written with the write it follows, once: the backend's
// rejection fires in the backend step's transaction, and the rejection step
// after it (another transaction of the same request) and the request's final
// flush do not write it again. A firing whose write rolled back is not lost:
// the flush writes it.
func TestFiringsAreRecordedOnceWithTheirWrite(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReject.Name})
	_, c, p := w.queue("orders")
	ans := w.send(a, c, p)
	if ans.err == nil || ans.err.HostCode != "backend_rejected" {
		t.Fatalf("a POST under transition.reject: %d %v %s", ans.status, ans.err, ans.body)
	}
	if n := w.fired(fault.TransitionReject.Name); n != 1 {
		t.Fatalf("transition.reject fired once and was recorded %d times", n)
	}

	c.Faults = a.Request("rolled-back", c.Kind, c.Name)
	e, err := w.s.write(c, func(q store.Q) error {
		if !c.Faults.On(fault.TransitionReject) {
			t.Fatal("transition.reject did not fire")
		}
		return refuse(wire.CodeFormIdentityConflict, "", "refused after the firing")
	})
	if err != nil || e == nil {
		t.Fatalf("a refused write: %v %v", e, err)
	}
	if n := w.fired(fault.TransitionReject.Name); n != 1 {
		t.Fatalf("a rolled-back firing was recorded: %d", n)
	}
	if err := c.Faults.Flush(w.st, w.clock); err != nil {
		t.Fatal(err)
	}
	if n := w.fired(fault.TransitionReject.Name); n != 2 {
		t.Fatalf("the flush after a rolled-back write recorded %d firings in all, want 2", n)
	}
}

// transition.re-dispatch applies a committed transition's change once more
// on each replay (generation and revision +1), never on the POST that
// commits it, and a replay after the resource is gone moves nothing.
func TestReDispatchActsOnlyOnAReplayOfACommittedTransition(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReDispatch.Name})
	res, c, p := w.queue("orders")
	first := w.send(a, c, p)
	if first.err != nil || first.status != 200 {
		t.Fatalf("the committing POST: %d %v %s", first.status, first.err, first.body)
	}
	committed := w.resource(res.UID)
	// claim +1, advance +1; the fault is not asked on the POST that commits
	if committed.Generation != res.Generation+1 || committed.Revision != res.Revision+2 || w.fired(fault.TransitionReDispatch.Name) != 0 {
		t.Fatalf("after the committing POST: generation %d revision %d (from %d/%d), re-dispatch fired %d times; want %d/%d and none",
			committed.Generation, committed.Revision, res.Generation, res.Revision, w.fired(fault.TransitionReDispatch.Name),
			res.Generation+1, res.Revision+2)
	}

	replay := w.send(a, c, p)
	if replay.err != nil || replay.status != 200 || !bytes.Equal(replay.body, first.body) {
		t.Fatalf("the replay: %d %v, body equal to the first answer: %v", replay.status, replay.err, bytes.Equal(replay.body, first.body))
	}
	moved := w.resource(res.UID)
	if moved.Generation != committed.Generation+1 || moved.Revision != committed.Revision+1 || w.fired(fault.TransitionReDispatch.Name) != 1 {
		t.Fatalf("after a replay under transition.re-dispatch: generation %d revision %d, fired %d; want %d/%d, fired 1",
			moved.Generation, moved.Revision, w.fired(fault.TransitionReDispatch.Name), committed.Generation+1, committed.Revision+1)
	}

	w.write(func(q store.Q) error { return store.DeleteResource(q, w.resourceIn(q, res.UID)) })
	gone := w.send(a, c, p)
	if gone.err != nil || gone.status != 200 || !bytes.Equal(gone.body, first.body) {
		t.Fatalf("a replay after the resource was deleted: %d %v %s", gone.status, gone.err, gone.body)
	}
	if w.resource(res.UID) != nil {
		t.Fatalf("a replay re-created the deleted resource")
	}
}

// transition.re-render re-encodes a replayed answer (the same JSON value,
// not the stored bytes) whether the replay finds the operation committed or
// still waiting for the backend; the POST that creates the operation and a
// replayed refusal are answered as they are, and the fault does not fire.
func TestReRenderActsOnlyOnAReplayedAnswer(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReRender.Name})
	fired := func() int64 { return w.fired(fault.TransitionReRender.Name) }
	_, c, p := w.queue("orders")
	first := w.send(a, c, p)
	op := p.OperationID
	if first.err != nil || first.status != 200 || !bytes.Equal(first.body, w.row(op).Receipt) || fired() != 0 {
		t.Fatalf("the committing POST: %d %v, stored receipt: %v, re-render fired %d", first.status, first.err,
			bytes.Equal(first.body, w.row(op).Receipt), fired())
	}
	replay := w.send(a, c, p)
	if replay.err != nil || replay.status != 200 || bytes.Equal(replay.body, first.body) || !sameJSON(t, replay.body, first.body) || fired() != 1 {
		t.Fatalf("a committed replay under transition.re-render: %d %v, fired %d, body\n%s", replay.status, replay.err, fired(), replay.body)
	}

	// An operation past the dispatch fence with no backend evidence yet.
	_, c, p = w.queue("jobs")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	w.dispatched(row)
	waiting := w.send(a, c, p)
	want := w.s.pending(w.row(row.OperationID), "indeterminate")
	if waiting.err != nil || waiting.status != 202 || bytes.Equal(waiting.body, want.body) || !sameJSON(t, waiting.body, want.body) || fired() != 2 {
		t.Fatalf("a replay of a dispatched operation under transition.re-render: %d %v, fired %d, body\n%s", waiting.status, waiting.err, fired(), waiting.body)
	}
	if w.dispatches(row.OperationID) != 0 {
		t.Fatalf("a replay called the backend")
	}

	// A rejected operation's replay is its stored refusal, untouched.
	_, c, p = w.queue("mail")
	if r := w.send(w.arm(fault.Spec{Fault: fault.TransitionReject.Name, Resource: "mail", Count: 1}), c, p); r.err == nil {
		t.Fatalf("the rejected POST: %d %s", r.status, r.body)
	}
	before := fired()
	refused := w.send(a, c, p)
	if refused.err == nil || refused.err.HostCode != "backend_rejected" || refused.body != nil || fired() != before {
		t.Fatalf("a replayed refusal under transition.re-render: %v %s, fired %d (before %d)", refused.err, refused.body, fired(), before)
	}
	if reencoded(nil) != nil || string(reencoded([]byte("not json"))) != "not json" {
		t.Fatalf("reencoded changed what is not JSON")
	}
}

func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}

// The backend step journals what the backend answered: committed, or
// rejected with its failure code.
func TestBackendStepJournalsItsOutcome(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReject.Name, Resource: "jobs", Value: "quota_exceeded"})
	for name, want := range map[string]string{"orders": "committed", "jobs": "rejected:quota_exceeded"} {
		_, c, p := w.queue(name)
		w.send(a, c, p)
		got := w.journaled(p.OperationID, "C:backend")
		if len(got) != 1 || got[0]["outcome"] != want {
			t.Errorf("%s: C:backend journaled %v, want one with outcome %q", name, got, want)
		}
	}
	if n := w.fired(fault.TransitionReject.Name + "=quota_exceeded"); n != 1 {
		t.Fatalf("transition.reject=quota_exceeded fired %d times, want 1 (on jobs)", n)
	}
}

// transition.reject-advances moves the rejected resource's generation by one
// (as if the rejected spec had been applied); the claim's release moves the
// revision as every rejection does.
func TestRejectAdvancesMovesTheGenerationByOne(t *testing.T) {
	w := newWorld(t)
	a := w.arm(fault.Spec{Fault: fault.TransitionReject.Name}, fault.Spec{Fault: fault.TransitionRejectAdvances.Name})
	res, c, p := w.queue("orders")
	if r := w.send(a, c, p); r.err == nil || r.err.HostCode != "backend_rejected" {
		t.Fatalf("the rejected POST: %d %v %s", r.status, r.err, r.body)
	}
	got := w.resource(res.UID)
	if got.Generation != res.Generation+1 || got.Revision != res.Revision+2 || got.ClaimOp != "" || got.DefVersion != res.DefVersion {
		t.Fatalf("after a rejection under transition.reject-advances: generation %d revision %d claim %q at %s; want %d/%d, no claim, at %s",
			got.Generation, got.Revision, got.ClaimOp, got.DefVersion, res.Generation+1, res.Revision+2, res.DefVersion)
	}
	if n := w.fired(fault.TransitionRejectAdvances.Name); n != 1 {
		t.Fatalf("transition.reject-advances fired %d times", n)
	}
}

// A replay whose re-dispatch write fails (store.fail on its first data
// statement, or store.read-fail on its read of the resource) answers that
// failure, and the resource does not move: the error of the re-dispatch is
// not dropped for the recorded answer, nor a failed read taken for "gone".
func TestReDispatchWhoseWriteFailsAnswersTheFailure(t *testing.T) {
	for _, f := range []*fault.Rule{fault.StoreFail, fault.StoreReadFail} {
		t.Run(f.Name, func(t *testing.T) {
			w := newWorld(t)
			res, c, p := w.queue("orders")
			first := w.send(w.arm(), c, p)
			if first.err != nil || first.status != 200 {
				t.Fatalf("the committing POST: %d %v %s", first.status, first.err, first.body)
			}
			committed := w.resource(res.UID)
			a := w.arm(fault.Spec{Fault: fault.TransitionReDispatch.Name}, fault.Spec{Fault: f.Name, Value: "1", Count: 1})
			replay := w.send(a, c, p)
			if replay.err == nil || replay.err.Code != wire.CodeInternalError || !strings.Contains(replay.err.Message, f.Name+" fault") {
				t.Fatalf("the replay whose re-dispatch failed answered %d %v %s; want internal_error naming the %s fault", replay.status, replay.err, replay.body, f.Name)
			}
			if now := w.resource(res.UID); now.Generation != committed.Generation || now.Revision != committed.Revision {
				t.Fatalf("the failed re-dispatch moved the resource to generation %d revision %d (from %d/%d)", now.Generation, now.Revision, committed.Generation, committed.Revision)
			}
			if n := w.fired(f.Name + "=1"); n != 1 {
				t.Fatalf("%s fired %d times, want 1", f.Name, n)
			}
		})
	}
}

// TestStoreFailAtEveryStatementOfAPinnedTransition fails, in turn, each data
// statement (store.fail) and each read inside its writes (store.read-fail) of
// a Form transition whose resource another pins (a QueueConsumer of the
// queue), so the commit also re-renders that consumer: every failed
// statement is answered internal_error naming the fault, and the POST that
// commits is the first one the fault did not reach, and moved the consumer's
// revision. A step that dropped the re-render's error would commit with the
// fault fired; one that skipped the re-render would leave the revision.
func TestStoreFailAtEveryStatementOfAPinnedTransition(t *testing.T) {
	for _, f := range []*fault.Rule{fault.StoreFail, fault.StoreReadFail} {
		t.Run(f.Name, func(t *testing.T) { sweepPinnedTransition(t, f) })
	}
}

func sweepPinnedTransition(t *testing.T, f *fault.Rule) {
	var consumer *store.Resource
	sweepPOST(t, f, 4, func(w *world) (*Call, *parsed) {
		res, c, p := w.queue("orders")
		w.insert(w.form(res.APIVersion, "ModuleWorker", "0.1.0"), "api", map[string]any{})
		ref := func(kind, name string) map[string]any {
			return map[string]any{"apiVersion": res.APIVersion, "kind": kind, "name": name}
		}
		consumer = w.insert(w.form(res.APIVersion, "QueueConsumer", "0.1.0"), "c", map[string]any{"queue": ref("AtLeastOnceQueue", "orders"), "worker": ref("ModuleWorker", "api"),
			"maxBatchSize": 10, "maxBatchTimeoutSeconds": 5, "maxConcurrency": 4, "maxRetries": 3, "retryDelaySeconds": 60})
		return c, p
	}, func(w *world) {
		// the commit re-rendered the consumer: its revision moved, never its generation
		if after := w.resource(consumer.UID); after.Revision != consumer.Revision+1 || after.Generation != consumer.Generation {
			t.Fatalf("the consumer after the commit: generation %d revision %d (from %d/%d); want the revision moved by one",
				after.Generation, after.Revision, consumer.Generation, consumer.Revision)
		}
	})
}

// TestStoreFailAtEveryStatementOfAMovedEndpointsTransition fails, in turn, each
// data statement and each read inside the writes of a Form transition whose
// new spec points the WorkerEndpoint at another worker: the POST resolves the
// new references under the new Form before it claims, and re-pins them when
// it advances. Every failed statement is answered internal_error naming the
// fault and leaves the endpoint whole (as it was, or wholly advanced when a
// record after the advance failed, which a retry answers from the ledger:
// TestStoreFailAtEveryStatementStaysExact); the POST that commits is
// the first the fault did not reach, and pins the endpoint to the new worker.
// A step that took a failed lookup for "the worker is gone", or dropped the
// error, would answer otherwise or commit with the fault fired.
func TestStoreFailAtEveryStatementOfAMovedEndpointsTransition(t *testing.T) {
	for _, f := range []*fault.Rule{fault.StoreFail, fault.StoreReadFail} {
		t.Run(f.Name, func(t *testing.T) {
			var m movedEndpoint
			sweepPOST(t, f, 4, func(w *world) (*Call, *parsed) {
				m = w.movedEndpoint("other-worker", true)
				return m.c, m.p
			}, func(w *world) {
				pins := w.pins(m.res.UID)
				if r := w.resource(m.res.UID); r.Generation != m.res.Generation+1 || len(pins) != 1 || pins[0].TargetUID != m.other.UID {
					t.Fatalf("after the commit the endpoint is at generation %d with pins %+v; want %d, pinned to other-worker", r.Generation, pins, m.res.Generation+1)
				}
			}, func(w *world, n int) {
				// failed before the advance committed, the endpoint is as it was; after
				// (a later record of the POST failed), it is wholly advanced: never a
				// new generation on the old pin, nor the new pin on the old generation
				pins := w.pins(m.res.UID)
				r := w.resource(m.res.UID)
				before := r.Generation == m.res.Generation && len(pins) == 1 && pins[0].TargetUID == m.old.UID
				after := r.Generation == m.res.Generation+1 && len(pins) == 1 && pins[0].TargetUID == m.other.UID
				if !before && !after {
					t.Fatalf("%s=%d: the failed POST left the endpoint half moved: generation %d (from %d) with pins %+v", f.Name, n, r.Generation, m.res.Generation, pins)
				}
			})
		})
	}
}

// sweepPOST fails, in a fresh world each time, the n-th statement of f's kind
// (store.fail: data statements; store.read-fail: reads inside the writes) of
// the POST setup gives, for n = 1, 2, ... until a POST commits: every POST
// before it answers internal_error naming the fault, which fired once, and
// then passes each of failed; the committing one comes at n > atLeast (a
// sweep that commits sooner never reached the statements it is about), with
// the fault unfired, and passes committed.
func sweepPOST(t *testing.T, f *fault.Rule, atLeast int, setup func(*world) (*Call, *parsed), committed func(*world), failed ...func(*world, int)) {
	t.Helper()
	for n := 1; ; n++ {
		if n > 200 {
			t.Fatalf("a Form transition of more than 200 statements of %s's kind: the sweep does not end", f.Name)
		}
		w := newWorld(t)
		c, p := setup(w)
		spec := fault.Spec{Fault: f.Name, Value: strconv.Itoa(n), Count: 1}
		ans := w.send(w.arm(spec), c, p)
		fired := w.fired(fmt.Sprintf("%s=%d", f.Name, n))
		if ans.err == nil && ans.status == 200 {
			if fired != 0 {
				t.Fatalf("%s=%d: the POST committed, yet the fault fired %d times: a failed statement's error was dropped", f.Name, n, fired)
			}
			if n <= atLeast {
				t.Fatalf("the POST committed at %s=%d: the sweep never reached the commit", f.Name, n)
			}
			committed(w)
			t.Logf("%s failed each of the POST's first %d statements of its kind in turn", f.Name, n-1)
			return
		}
		if ans.err == nil || ans.err.Code != wire.CodeInternalError || !strings.Contains(ans.err.Message, f.Name+" fault") || fired != 1 {
			t.Fatalf("%s=%d: answered %d %v (fired %d); want internal_error naming the fault, fired once", f.Name, n, ans.status, ans.err, fired)
		}
		for _, check := range failed {
			check(w, n)
		}
	}
}

// form is the embedded catalog's Form of kind at version.
func (w *world) form(apiVersion, kind, version string) *catalog.Form {
	w.t.Helper()
	if k, ok := w.cat.Kind(apiVersion, kind); ok {
		if f, ok := k.Version(version); ok {
			return f
		}
	}
	w.t.Fatalf("no %s %s in the embedded catalog", kind, version)
	return nil
}
