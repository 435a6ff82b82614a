package related

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/store"
)

const tenant, space = "tenant-a", "prod"

// world is the related checks of the full profile over a private store.
type world struct {
	t   *testing.T
	g   *G
	st  *store.Store
	cat *catalog.Catalog
}

func newWorld(t *testing.T) *world {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load("full")
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &world{t: t, g: New(profile.Resolve(p, cat)), st: st, cat: cat}
}

func (w *world) form(kind string) *catalog.Form {
	for _, f := range w.cat.Forms() {
		if f.Ref.Kind == kind {
			return f
		}
	}
	w.t.Fatalf("no %s", kind)
	return nil
}

func (w *world) write(fn func(q store.Q) error) {
	w.t.Helper()
	if err := w.st.Write(context.Background(), fn); err != nil {
		w.t.Fatal(err)
	}
}

// insert stores name of kind with uid and its fixture spec, pinned as resolved.
func (w *world) insert(kind, name, uid string) (*store.Resource, []store.Pin) {
	w.t.Helper()
	return w.insertIn(space, kind, name, uid)
}

// insertIn is insert in another space of the tenant.
func (w *world) insertIn(space, kind, name, uid string) (*store.Resource, []store.Pin) {
	w.t.Helper()
	f := w.form(kind)
	var spec map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	jcs, _ := wire.CanonicalValue(spec)
	r := &store.Resource{Tenant: tenant, Space: space, APIVersion: f.Ref.APIVersion, Kind: kind, Name: name, UID: uid,
		DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1, Spec: jcs,
		SpecDigest: wire.RawDigest(jcs), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable}
	var pins []store.Pin
	w.write(func(q store.Q) error {
		var e *wire.Error
		var err error
		if pins, e, err = w.g.Resolve(q, f, tenant, space, spec, nil); err != nil {
			return err
		} else if e != nil {
			return e
		}
		r.Pins = int64(len(pins))
		for i := range pins {
			pins[i].SourceUID = uid
		}
		if err := store.InsertResource(q, r); err != nil {
			return err
		}
		return store.ReplacePins(q, uid, pins, false)
	})
	return r, pins
}

// A reference resolves to the uid that holds the name now and is pinned by
// it; a reference to nothing is refused, naming its field.
func TestResolvePinsTheTargetsUID(t *testing.T) {
	w := newWorld(t)
	trigger := w.form("WorkerCronTrigger")
	var spec map[string]any
	_ = json.Unmarshal(trigger.Fixtures[0].Desired, &spec)
	w.write(func(q store.Q) error {
		pins, e, err := w.g.Resolve(q, trigger, tenant, space, spec, nil)
		if err != nil || e == nil || e.Code != wire.CodeResourceNotFound {
			t.Fatalf("a reference to nothing: %v %v (%v); want resource_not_found", pins, e, err)
		}
		fs := fault.Fixed(fault.Spec{Fault: fault.RelationsIgnoreMissing.Name})
		if pins, e, err := w.g.Resolve(q, trigger, tenant, space, spec, fs); err != nil || e != nil || len(pins) != 0 || len(fs.Firings()) != 1 {
			t.Fatalf("relations.ignore-missing: %v %v (%v), fired %v; want nothing pinned, no refusal, one firing", pins, e, err, fs.Firings())
		}
		return nil
	})
	w.insert("ModuleWorker", "module-worker", "u-worker-1")
	_, pins := w.insert("WorkerCronTrigger", "nightly", "u-trigger")
	if len(pins) != 1 || pins[0].Pointer != "/worker" || pins[0].TargetUID != "u-worker-1" || pins[0].TargetName != "module-worker" {
		t.Fatalf("pins %+v; want /worker pinned to u-worker-1", pins)
	}
}

// A pinned target is not deleted (dependency_in_use, naming who pins it),
// unless it was removed out of band or delete.skip-dependents is armed.
func TestDeleteScansKeepAPinnedTarget(t *testing.T) {
	w := newWorld(t)
	worker, _ := w.insert("ModuleWorker", "module-worker", "u-worker-1")
	w.insert("WorkerCronTrigger", "nightly", "u-trigger")
	w.write(func(q store.Q) error {
		e := w.g.DeleteScans(q, worker, false, nil)
		if e == nil || e.Code != wire.CodeDependencyInUse || !strings.Contains(e.Message, `WorkerCronTrigger "nightly" (/worker)`) {
			t.Fatalf("a pinned worker: %v; want dependency_in_use naming the trigger", e)
		}
		if e := w.g.DeleteScans(q, worker, true, nil); e != nil {
			t.Fatalf("an out-of-band removal: %v", e)
		}
		fs := fault.Fixed(fault.Spec{Fault: fault.DeleteSkipDependents.Name})
		if e := w.g.DeleteScans(q, worker, false, fs); e != nil || len(fs.Firings()) != 1 {
			t.Fatalf("delete.skip-dependents: %v, fired %v", e, fs.Firings())
		}
		return nil
	})
}

// A source renders drift from its pins: Ready False DependencyMissing while
// the pinned name is gone, ExternalChange (relation-target-replaced) once
// another uid holds it. The recompute pass after a mutation of the name moves
// the source's revision once, never its generation; a second pass changes
// nothing.
func TestDriftAndTheRecomputePass(t *testing.T) {
	w := newWorld(t)
	worker, _ := w.insert("ModuleWorker", "module-worker", "u-worker-1")
	trigger, pins := w.insert("WorkerCronTrigger", "nightly", "u-trigger")
	ready := func(q store.Q, fs *fault.Set) Ready {
		t.Helper()
		rd, err := w.g.ReadyOf(q, trigger, nil, fs)
		if err != nil {
			t.Fatal(err)
		}
		return rd
	}
	w.write(func(q store.Q) error {
		if rd, err := w.g.ReadyOf(q, trigger, pins, nil); err != nil || rd.Status != wire.StatusTrue || rd.Reason != wire.ReasonAvailable {
			t.Fatalf("pinned to the live worker: %+v %v; want Ready True Available", rd, err)
		}
		if err := store.DeleteResource(q, worker); err != nil {
			return err
		}
		if rd := ready(q, nil); rd.Status != wire.StatusFalse || rd.Reason != wire.ReasonDependencyMissing {
			t.Fatalf("the pinned worker gone: %+v; want Ready False DependencyMissing", rd)
		}
		return nil
	})
	w.insert("ModuleWorker", "module-worker", "u-worker-2")
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Format(time.RFC3339)
	w.write(func(q store.Q) error {
		if rd := ready(q, nil); rd.Status != wire.StatusFalse || rd.Reason != wire.ReasonExternalChange ||
			!strings.HasPrefix(rd.HostReason, "relation-target-replaced /worker") {
			t.Fatalf("the pinned worker replaced: %+v; want Ready False ExternalChange relation-target-replaced", rd)
		}
		fs := fault.Fixed(fault.Spec{Fault: fault.RelationsNoDrift.Name})
		if rd := ready(q, fs); rd.Status != wire.StatusTrue || len(fs.Firings()) != 1 {
			t.Fatalf("relations.no-drift: %+v, fired %v; want no drift and one firing", rd, fs.Firings())
		}
		for pass := range 2 {
			if err := w.g.Recompute(q, tenant, space, worker.APIVersion, worker.Kind, worker.Name, "u-worker-2", now, nil); err != nil {
				return err
			}
			r, _ := store.GetResourceByUID(q, "u-trigger")
			if r.Revision != 2 || r.ReadyStatus != wire.StatusFalse || r.ReadyLTT != now || r.Generation != 1 {
				t.Fatalf("after pass %d: revision %d, Ready %s since %q, generation %d; want revision 2, False since %s, generation 1",
					pass+1, r.Revision, r.ReadyStatus, r.ReadyLTT, r.Generation, now)
			}
		}
		return nil
	})
}

// ApplyReady stores a changed Ready and stamps the transition time only when
// the status changes.
func TestApplyReady(t *testing.T) {
	r := &store.Resource{ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable, ReadyLTT: "t0"}
	if ApplyReady(r, Ready{Status: wire.StatusTrue, Reason: wire.ReasonAvailable}, "t1") || r.ReadyLTT != "t0" {
		t.Fatal("the same Ready changed the resource")
	}
	if !ApplyReady(r, Ready{Status: wire.StatusTrue, Reason: wire.ReasonAvailable, Message: "m"}, "t2") || r.ReadyLTT != "t0" {
		t.Fatal("a new message is a change, not a transition")
	}
	if !ApplyReady(r, Ready{Status: wire.StatusFalse, Reason: wire.ReasonDependencyMissing}, "t3") || r.ReadyLTT != "t3" {
		t.Fatalf("a status change: transition time %s, want t3", r.ReadyLTT)
	}
}

func TestRoles(t *testing.T) {
	if !IsWorker("ModuleWorker") || IsWorker("AtLeastOnceQueue") || !IsDatabase("SQLiteDatabase") || IsDatabase("ModuleWorker") {
		t.Fatal("the role table (worker_roles.json) does not name the worker and the database kinds")
	}
}

// The recompute pass re-renders every source pinning the mutated name, not
// only the first it changes.
func TestRecomputeReachesEverySource(t *testing.T) {
	w := newWorld(t)
	worker, _ := w.insert("ModuleWorker", "module-worker", "u-worker-1")
	w.insert("WorkerCronTrigger", "nightly", "u-trigger-1")
	w.insert("WorkerCronTrigger", "hourly", "u-trigger-2")
	w.write(func(q store.Q) error { return store.DeleteResource(q, worker) })
	w.write(func(q store.Q) error {
		if err := w.g.Recompute(q, tenant, space, worker.APIVersion, worker.Kind, worker.Name, worker.UID, "t1", nil); err != nil {
			return err
		}
		for _, uid := range []string{"u-trigger-1", "u-trigger-2"} {
			if r, _ := store.GetResourceByUID(q, uid); r.ReadyReason != wire.ReasonDependencyMissing || r.Revision != 2 {
				t.Errorf("%s after the pass: Ready %s %s, revision %d; want False DependencyMissing at revision 2", uid, r.ReadyStatus, r.ReadyReason, r.Revision)
			}
		}
		return nil
	})
}
