package lifecycle_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// What settling and cancelling leave besides the Operation document: the
// idempotency records waiting on the operation are bound to what it decided,
// the stored operation says so, and the journal records each step.

// acceptDelete records a pending delete of the queue name (uid) at generation 1.
func (w *world) acceptDelete(name, uid string) *store.Operation {
	w.t.Helper()
	f := w.formOf("AtLeastOnceQueue")
	d := &decide.Deletion{Tenant: tenant, Space: space, Ref: f.Ref, Name: name, Fence: 1, TargetUID: uid}
	var op *store.Operation
	w.write(func(q store.Q) error {
		_, id, err := w.en.Accept(q, lifecycle.Accepted{Tenant: tenant, Principal: "alice", Action: "delete",
			Kind: f.Ref.Kind, Name: name, Request: d, TargetUID: uid, CompleteAfter: 2})
		if err != nil {
			return err
		}
		op, err = store.GetOperation(q, id)
		return err
	})
	return op
}

// waiting stores an idempotency record waiting on op and returns its key.
func (w *world) waiting(op *store.Operation) string {
	w.t.Helper()
	key := "k-" + op.ID
	w.write(func(q store.Q) error {
		return store.PutRecord(q, &store.Record{Tenant: tenant, Principal: "alice", Space: space, Key: key,
			Fingerprint: "fp-" + op.ID, Status: 202, Body: []byte(`{}`), BoundOp: op.ID, CreatedAt: now.Unix()})
	})
	return key
}

func (w *world) record(key string) *store.Record {
	w.t.Helper()
	var r *store.Record
	w.write(func(q store.Q) error {
		var err error
		r, err = store.GetRecord(q, tenant, "alice", space, key)
		return err
	})
	if r == nil {
		w.t.Fatalf("record %s is gone", key)
	}
	return r
}

func (w *world) operation(id string) *store.Operation {
	w.t.Helper()
	var op *store.Operation
	w.write(func(q store.Q) error {
		var err error
		op, err = store.GetOperation(q, id)
		return err
	})
	return op
}

// event is the data of the last journal event typ about the operation id, or nil.
func (w *world) event(typ, id string) map[string]any {
	var found map[string]any
	for _, e := range w.events {
		var d map[string]any
		if e.Type == typ && json.Unmarshal(e.Data, &d) == nil && d["id"] == id {
			found = d
		}
	}
	return found
}

// A settled create binds the records waiting on it to the uid it created
// and stores that uid as the operation's target; a settled delete unbinds
// them (nothing is left to bind to). Each step is journalled, with whether it
// failed.
func TestSettleBindsWaitingRecordsAndJournals(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	op := w.accept()
	if w.event("operation-accepted", op.ID) == nil {
		t.Fatalf("no operation-accepted event for %s in %+v", op.ID, w.events)
	}
	key := w.waiting(op)
	w.settle(op, nil)
	r := w.stored("orders")
	if r == nil {
		t.Fatal("the settled create stored nothing")
	}
	if rec := w.record(key); rec.BoundUID != r.UID || rec.BoundOp != "" {
		t.Fatalf("the waiting record after the create: bound uid %q op %q; want uid %s, no op", rec.BoundUID, rec.BoundOp, r.UID)
	}
	if got := w.operation(op.ID); !got.Done || got.TargetUID != r.UID {
		t.Fatalf("the stored operation: done %v target %q; want done, target %s", got.Done, got.TargetUID, r.UID)
	}
	if e := w.event("operation-settled", op.ID); e == nil || e["failed"] != false {
		t.Fatalf("operation-settled of the create: %v; want failed false", e)
	}

	del := w.acceptDelete("orders", r.UID)
	key = w.waiting(del)
	w.settle(del, nil)
	if w.stored("orders") != nil {
		t.Fatal("the settled delete left the queue")
	}
	if rec := w.record(key); rec.BoundUID != "" || rec.BoundOp != "" {
		t.Fatalf("the waiting record after the delete: bound uid %q op %q; want neither", rec.BoundUID, rec.BoundOp)
	}
	if e := w.event("operation-settled", del.ID); e == nil || e["failed"] != false {
		t.Fatalf("operation-settled of the delete: %v; want failed false", e)
	}

	w.storeQueue("orders", "u-first")
	refused := w.accept()
	if doc := w.settle(refused, nil); doc.Metadata["phase"] != "Failed" {
		t.Fatalf("the create over a taken name settled %+v; want Failed", doc)
	}
	if e := w.event("operation-settled", refused.ID); e == nil || e["failed"] != true {
		t.Fatalf("operation-settled of the refused create: %v; want failed true", e)
	}
}

// A cancel stores the operation done, releases the records waiting on it and
// journals the cancel.
func TestCancelReleasesWaitingRecordsAndJournals(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	op := w.accept()
	key := w.waiting(op)
	w.write(func(q store.Q) error { return w.en.Cancel(q, op) })
	if got := w.operation(op.ID); !got.Done || !strings.Contains(string(got.Doc), `"Cancelled"`) {
		t.Fatalf("the stored operation after cancel: done %v doc %s", got.Done, got.Doc)
	}
	if rec := w.record(key); rec.BoundOp != "" || rec.BoundUID != "" {
		t.Fatalf("the waiting record after cancel: bound uid %q op %q; want neither", rec.BoundUID, rec.BoundOp)
	}
	if w.event("operation-cancelled", op.ID) == nil {
		t.Fatalf("no operation-cancelled event for %s", op.ID)
	}
}

// A statement of the commit that fails reaches the caller, which rolls the
// whole write back: nothing is half-written. Each case arms a SQLite trigger
// that aborts one statement on a database file (the in-memory database keeps
// counters, records and prepares in its mirror alone) and proves it fired by
// its message in the error returned.
func TestStoreFailuresReachTheCaller(t *testing.T) {
	type setup struct {
		w  *world
		op *store.Operation
	}
	cases := []struct {
		name, trigger string
		before        func(s *setup)
		run           func(s *setup, q store.Q) error
	}{
		{"accept inserts the operation", "BEFORE INSERT ON operations", nil,
			func(s *setup, q store.Q) error {
				_, _, err := s.w.en.Accept(q, lifecycle.Accepted{Tenant: tenant, Action: "apply", Kind: "AtLeastOnceQueue", Name: "orders"})
				return err
			}},
		{"settle updates the operation", "BEFORE UPDATE ON operations",
			func(s *setup) { s.op = s.w.accept() },
			func(s *setup, q store.Q) error { return settle(s.w.en, q, s.op, nil) }},
		{"settle rebinds the waiting records", "BEFORE UPDATE ON idempotency",
			func(s *setup) { s.op = s.w.accept(); s.w.waiting(s.op) },
			func(s *setup, q store.Q) error { return settle(s.w.en, q, s.op, nil) }},
		{"cancel updates the operation", "BEFORE UPDATE ON operations",
			func(s *setup) { s.op = s.w.accept() },
			func(s *setup, q store.Q) error { return s.w.en.Cancel(q, s.op) }},
		{"cancel releases the waiting records", "BEFORE UPDATE ON idempotency",
			func(s *setup) { s.op = s.w.accept(); s.w.waiting(s.op) },
			func(s *setup, q store.Q) error { return s.w.en.Cancel(q, s.op) }},
		{"commit inserts the resource", "BEFORE INSERT ON resources",
			func(s *setup) { s.op = s.w.accept() },
			func(s *setup, q store.Q) error { return settle(s.w.en, q, s.op, nil) }},
		{"commit counts the mutation", "BEFORE INSERT ON counters",
			func(s *setup) { s.op = s.w.accept() },
			func(s *setup, q store.Q) error { return settle(s.w.en, q, s.op, nil) }},
		{"delete removes the resource", "BEFORE DELETE ON resources",
			func(s *setup) { s.w.storeQueue("orders", "u-orders"); s.op = s.w.acceptDelete("orders", "u-orders") },
			func(s *setup, q store.Q) error { return settle(s.w.en, q, s.op, nil) }},
		{"delete counts the mutation", "BEFORE INSERT ON counters",
			func(s *setup) { s.w.storeQueue("orders", "u-orders"); s.op = s.w.acceptDelete("orders", "u-orders") },
			func(s *setup, q store.Q) error { return settle(s.w.en, q, s.op, nil) }},
		{"a touch updates the resource", "BEFORE UPDATE ON resources",
			func(s *setup) { s.w.storeQueue("orders", "u-orders") },
			func(s *setup, q store.Q) error { return s.w.touch(q) }},
		{"a touch counts the mutation", "BEFORE INSERT ON counters",
			func(s *setup) { s.w.storeQueue("orders", "u-orders") },
			func(s *setup, q store.Q) error { return s.w.touch(q) }},
		{"prepare mints the binding", "BEFORE INSERT ON prepares", nil,
			func(s *setup, q store.Q) error { return s.w.prepare(q) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := &world{t: t, file: filepath.Join(t.TempDir(), "host.db")}
			w.host("full", nil)
			t.Cleanup(w.close)
			s := &setup{w: w}
			if c.before != nil {
				c.before(s)
			}
			if _, err := w.st.DB().Exec("CREATE TRIGGER injected " + c.trigger + " BEGIN SELECT RAISE(ABORT, 'injected failure'); END"); err != nil {
				t.Fatal(err)
			}
			err := w.st.Write(context.Background(), func(q store.Q) error { return c.run(s, q) })
			if err == nil || !strings.Contains(err.Error(), "injected failure") {
				t.Fatalf("%s failed under %q; the caller got %v", c.name, c.trigger, err)
			}
		})
	}
}

// touch is the touch-status probe on the stored queue orders.
func (w *world) touch(q store.Q) error {
	f := w.formOf("AtLeastOnceQueue")
	cur, err := store.GetResource(q, tenant, space, f.Ref.APIVersion, f.Ref.Kind, "orders")
	if err != nil || cur == nil {
		w.t.Fatalf("no stored orders: %v", err)
	}
	if e := w.en.Observe(q, f, cur, decide.Preconditions{Fence: cur.Generation}, true, fault.Fixed()); e != nil {
		return e
	}
	return nil
}

// prepare mints a prepareDigest for a create of the queue orders.
func (w *world) prepare(q store.Q) error {
	f := w.formOf("AtLeastOnceQueue")
	var spec map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	fs := fault.Fixed()
	g, e := w.en.GateOrRefuse(f, spec, fs)
	if e != nil {
		w.t.Fatal(e)
	}
	if _, e := w.en.Prepare(q, tenant, &request.Request{Ref: f.Ref, Name: "orders", Space: space}, g, 0, fs); e != nil {
		return e
	}
	return nil
}

// A committed delete counts one mutation and journals the deletion, for a
// database (whose real database is dropped after the commit) as for any
// other resource.
func TestCommitDeleteCountsAndJournals(t *testing.T) {
	for _, kind := range []string{"AtLeastOnceQueue", "SQLiteDatabase"} {
		t.Run(kind, func(t *testing.T) {
			w := &world{t: t}
			w.host("full", nil)
			t.Cleanup(w.close)
			f := w.formOf(kind)
			spec, _ := wire.CanonicalValue(f.Materialize(map[string]any{}))
			cur := &store.Resource{Tenant: tenant, Space: space, APIVersion: f.Ref.APIVersion, Kind: kind, Name: "main",
				UID: "u-main", DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1,
				Spec: spec, SpecDigest: wire.RawDigest(spec), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable}
			w.write(func(q store.Q) error { return store.InsertResource(q, cur) })
			w.events = nil
			var counted int64
			w.write(func(q store.Q) error {
				if err := w.en.CommitDelete(q, cur, fault.Fixed()); err != nil {
					return err
				}
				c, err := store.CounterValues(q)
				counted = c["mutations"]
				return err
			})
			journalled := 0
			for _, e := range w.events {
				if e.Type == "mutation" && bytes.Contains(e.Data, []byte("u-main")) {
					journalled++
				}
			}
			if counted != 1 || journalled != 1 {
				t.Fatalf("deleting %s counted %d mutations and journalled %d deletions; want 1 and 1", kind, counted, journalled)
			}
		})
	}
}

// A prepare refused at its target resolves no tenant: prepare.host-wide,
// armed, does not act (nor count a firing) for a prepare it does not bind.
func TestRefusedPrepareLeavesTheTenantFaultAlone(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	w.storeQueue("orders", "u-orders")
	f := w.formOf("AtLeastOnceQueue")
	var spec map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	s, err := fault.ParseText("prepare.host-wide")
	if err != nil {
		t.Fatal(err)
	}
	fs := fault.Fixed(s)
	g, e := w.en.GateOrRefuse(f, spec, fs)
	if e != nil {
		t.Fatal(e)
	}
	w.decided(false, func(q store.Q) error {
		_, e = w.en.Prepare(q, tenant, &request.Request{Ref: f.Ref, Name: "orders", Space: space}, g, 7, fs)
		return nil
	})
	if e == nil || e.Code != wire.CodeGenerationConflict {
		t.Fatalf("prepare at a stale fence: %v; want generation_conflict", e)
	}
	if fired := fs.Firings(); len(fired) != 0 {
		t.Fatalf("the refused prepare fired %v", fired)
	}
	// The fault acts on a prepare that binds.
	w.decided(false, func(q store.Q) error {
		_, e = w.en.Prepare(q, tenant, &request.Request{Ref: f.Ref, Name: "orders", Space: space}, g, 1, fs)
		return nil
	})
	if e != nil || len(fs.Firings()) != 1 {
		t.Fatalf("a binding prepare: %v, fired %v; want prepare.host-wide once", e, fs.Firings())
	}
}
