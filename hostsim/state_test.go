package hostsim_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

// The admin state as typed values: what the admin JSON shows and more (the
// served Ready and outputs), read without firing a fault.
func TestStateAsTypedValues(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	st := sim.Host.State()
	ctx := context.Background()
	c := newClient(t, sim.URL, "sim-primary")
	wake, cancel := st.Subscribe()
	defer cancel()
	f, spec := endpointWorld(t, c, cat, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	select {
	case <-wake:
	case <-time.After(5 * time.Second):
		t.Fatal("a mutation did not wake a state subscriber")
	}
	arm(t, sim, "outputs.omit,resource=edge")
	res, err := st.Resources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var edge *hostsim.StateResource
	for i := range res {
		if res[i].Name == "edge" {
			edge = &res[i]
		}
	}
	if edge == nil || edge.Generation != 1 || edge.Ready().Status != "True" || len(edge.Outputs()) != len(f.Outputs) {
		t.Fatalf("the edge resource: %+v", edge)
	}
	faults, err := st.Faults()
	if err != nil || len(faults) != 1 || faults[0].Fired != 0 {
		t.Fatalf("reading state fired a fault: %+v %v", faults, err)
	}
	n, err := st.Counters(ctx)
	if err != nil || n.Mutations < 1 || n.Requests < 2 {
		t.Fatalf("counters %+v %v", n, err)
	}
	evs, err := st.Events(ctx, 0, 1000)
	if err != nil || len(evs) == 0 {
		t.Fatalf("events %v %v", evs, err)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Fatalf("event ids do not increase: %d after %d", evs[i].Seq, evs[i-1].Seq)
		}
	}
	if r, err := st.Refusals(); err != nil || len(r) != 0 {
		t.Fatalf("full refuses %v %v", r, err)
	}
}

func TestStateRefusalsAndOperations(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "no-endpoints", ConformanceProbes: true})
	st := sim.Host.State()
	r, err := st.Refusals()
	if err != nil || len(r) == 0 || !strings.Contains(strings.Join(r, "; "), "no endpoint assignment") {
		t.Fatalf("no-endpoints refuses %v %v", r, err)
	}
	c := newClient(t, sim.URL, "sim-primary")
	f := updatable(t, cat)
	pd := c.prepare(f, "later", "prod", fixture(t, f), 0)
	b := body(f, "later", "prod", fixture(t, f), map[string]any{"review": map[string]any{"prepareDigest": pd}})
	op := c.do("PUT", resPath(f, "later"), map[string]string{"If-None-Match": "*", "Idempotency-Key": "k-later",
		"Takoform-Conformance-Probe": "async"}, b).status(202).json()["operation"].(map[string]any)
	ops, err := st.Operations(context.Background())
	if err != nil || len(ops) != 1 || ops[0].Done || ops[0].ID != op["id"] {
		t.Fatalf("operations %+v %v", ops, err)
	}
	if _, err := st.Complete(context.Background(), ops[0].ID, ""); err != nil {
		t.Fatal(err)
	}
	if ops, _ = st.Operations(context.Background()); !ops[0].Done {
		t.Fatal("Complete left the operation pending")
	}
	if _, err := st.Complete(context.Background(), "op_unknown", ""); err == nil {
		t.Fatal("completing an unknown operation succeeded")
	}
}

// "Nothing refused" is said only when the host installs the whole catalog:
// for every built-in profile, and for file profiles that include only some
// kinds or no interface (statements the refusals once did not make).
func TestRefusalsAreEmptyOnlyWhenTheWholeCatalogIsInstalled(t *testing.T) {
	cat := testCatalog(t)
	dir := t.TempDir()
	include := filepath.Join(dir, "include.json")
	os.WriteFile(include, []byte(`{"name": "include", "extends": "full", "forms": {"include": ["WorkerBundle"]}}`), 0o644)
	none := filepath.Join(dir, "none.json")
	os.WriteFile(none, []byte(`{"name": "none", "extends": "full", "interfaces": {"include": []}}`), 0o644)
	noBindings := filepath.Join(dir, "nobindings.json")
	os.WriteFile(noBindings, []byte(`{"name": "nobindings", "extends": "full", "bindings": {"include": []}}`), 0o644)
	for _, name := range append(profile.BuiltinNames, include, none, noBindings) {
		h, err := hostsim.New(hostsim.Config{Catalog: cat, Profile: name})
		if err != nil {
			t.Fatal(err)
		}
		r, err := h.State().Refusals()
		in := h.State().Installed()
		h.Close()
		if err != nil || (len(r) == 0 && !in.Whole) {
			t.Errorf("profile %s: refuses nothing (%v) but installs %+v, not the whole catalog", name, err, in)
		}
		if in.CatalogForms != len(cat.Forms()) || in.Forms > in.CatalogForms || (in.Whole && in.Forms != in.CatalogForms) {
			t.Errorf("profile %s: installed %+v of %d Forms", name, in, len(cat.Forms()))
		}
		switch name {
		case include:
			if !slices.Contains(r, "forms included only: WorkerBundle") || in.Forms == 0 || in.Kinds != 1 {
				t.Errorf("include: refuses %q, installs %+v", r, in)
			}
		case none:
			if !slices.Contains(r, "interfaces included only: none") || in.Whole {
				t.Errorf("none: refuses %q, installs %+v; want the clause, and not the whole catalog", r, in)
			}
		case noBindings:
			if !slices.Contains(r, "bindings included only: none") || in.Whole || in.Forms != in.CatalogForms {
				t.Errorf("no bindings: refuses %q, installs %+v; want the clause, every Form, and not the whole catalog", r, in)
			}
		case "no-endpoints":
			if !slices.Contains(r, "no endpoint assignment (WorkerEndpoint not installed: host-assigned outputs)") {
				t.Errorf("no-endpoints: refuses %q", r)
			}
		}
	}
}

// A kind name in two groups is two kinds of what a host installs.
func TestInstalledCountsAKindOfTwoGroupsTwice(t *testing.T) {
	cat, kind, err := catalogtest.TwoGroups(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := hostsim.New(hostsim.Config{Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	groups, names := map[string]bool{}, map[string]bool{}
	for _, f := range cat.Forms() {
		names[f.Ref.Kind] = true
		if f.Ref.Kind == kind {
			groups[f.Ref.APIVersion] = true
		}
	}
	if in := h.State().Installed(); len(groups) != 2 || in.Kinds != len(names)+1 || !in.Whole {
		t.Errorf("%s in %d groups, %d kind names: installed %+v; want %d kinds, the whole catalog", kind, len(groups), len(names), in, len(names)+1)
	}
}
