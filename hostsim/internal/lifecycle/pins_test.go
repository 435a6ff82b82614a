package lifecycle_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// storeFixture stores a resource of kind under name (uid u-NAME) with its
// first fixture's spec and the pin count given, as an older state left it.
func (w *world) storeFixture(kind, name string, pins int64) map[string]any {
	w.t.Helper()
	f := w.formOf(kind)
	var in map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &in)
	spec, err := wire.CanonicalValue(f.Materialize(in))
	if err != nil {
		w.t.Fatal(err)
	}
	w.write(func(q store.Q) error {
		return store.InsertResource(q, &store.Resource{Tenant: tenant, Space: space, APIVersion: f.Ref.APIVersion, Kind: kind,
			Name: name, UID: "u-" + name, DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1,
			Revision: 1, Spec: spec, SpecDigest: wire.RawDigest(spec), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable,
			Pins: pins})
	})
	return in
}

// An apply to an existing resource leaves it holding the pins its spec
// resolves now, counted on the resource (a trigger stored with no pin count
// counts its worker), and a pin that cannot be written fails the commit.
func TestAChangeRepinsItsRelations(t *testing.T) {
	w := &world{t: t, file: filepath.Join(t.TempDir(), "host.db")}
	w.host("full", nil)
	t.Cleanup(w.close)
	w.storeFixture("ModuleWorker", "module-worker", 0)
	spec := w.storeFixture("WorkerCronTrigger", "nightly", 0)
	f := w.formOf("WorkerCronTrigger")
	unchecked, err := fault.ParseText("aggregate.unchecked") // the worker serves no deployment: let the trigger through
	if err != nil {
		t.Fatal(err)
	}
	decideIt := func(q store.Q) *lifecycle.Outcome {
		m := &decide.Mutation{Action: "apply", Tenant: tenant, Principal: "alice", Ref: f.Ref, Space: space, Name: "nightly",
			Spec: spec, Fence: 1, TargetUID: "u-nightly"}
		fs := fault.Fixed(unchecked)
		o, e := w.en.Decide(q, m, nil, true, "apply", fs)
		if e != nil || len(fs.Firings()) != 1 {
			t.Fatalf("the re-apply of nightly: %v, fired %v; want it through aggregate.unchecked", e, fs.Firings())
		}
		return o
	}
	w.decided(false, func(q store.Q) error {
		if o := decideIt(q); o.Next.Pins != 1 {
			t.Fatalf("the re-apply of a trigger of one worker leaves %d pins counted; want 1", o.Next.Pins)
		}
		return nil
	})
	if _, err := w.st.DB().Exec("CREATE TRIGGER injected BEFORE INSERT ON pins BEGIN SELECT RAISE(ABORT, 'injected failure'); END"); err != nil {
		t.Fatal(err)
	}
	err = w.st.Write(context.Background(), func(q store.Q) error {
		_, err := w.en.Commit(q, decideIt(q), fault.Fixed())
		return err
	})
	if err == nil || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("the commit under a failing pin insert: %v", err)
	}
}
