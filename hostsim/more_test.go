package hostsim_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestPersistentDatabaseSurvivesRestart(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	db := filepath.Join(t.TempDir(), "sim.db")
	first := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db})
	c := newClient(t, first.URL, "sim-primary")
	created := c.create(f, "orders", "prod", fixture(t, f)).status(201)
	if err := first.Host.Close(); err != nil {
		t.Fatal(err)
	}
	second := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db})
	read := newClient(t, second.URL, "sim-primary").read(f, "orders", "prod").status(200)
	if string(read.body) != string(created.body) {
		t.Fatalf("after restart:\n%s\nwant\n%s", read.body, created.body)
	}
}

func TestConcurrentUpdatesNeverLoseOne(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	c.create(f, "orders", "prod", spec).status(201)
	next := changed(t, f, spec)
	pd := c.prepare(f, "orders", "prod", next, 1)
	var wins, conflicts atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			r := c.do("PUT", resPath(f, "orders"), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": fmt.Sprintf("race-%d", i)},
				body(f, "orders", "prod", next, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
			switch r.code {
			case 200:
				wins.Add(1)
			case 412, 400:
				conflicts.Add(1)
			default:
				t.Errorf("racing update: HTTP %d %s", r.code, r.body)
			}
		}(i)
	}
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c.create(f, fmt.Sprintf("n%d", i), "prod", spec).status(201)
		}(i)
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d updates under the same fence won, want exactly 1", wins.Load())
	}
	if _, g, _ := meta(t, c.read(f, "orders", "prod")); g != "2" {
		t.Fatalf("generation %s after the race, want 2", g)
	}
	if n, _ := sim.Admin.Counters(); n.Mutations != 10 {
		t.Fatalf("mutations = %d, want 10", n.Mutations)
	}
}

func TestStalePrepareDigestIsRefused(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	var offset atomic.Int64
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Clock: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	pd := c.prepare(f, "orders", "prod", spec, 0)
	offset.Store(int64(16 * time.Minute))
	put := func() *reply {
		return c.do("PUT", resPath(f, "orders"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
			body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
	}
	put().refused("invalid_argument", 400)
	// Minting the same digest again refreshes its life.
	if c.prepare(f, "orders", "prod", spec, 0) != pd {
		t.Fatal("prepare is not deterministic")
	}
	put().status(201)
}

// relWorld creates every top-level relation target of f's fixture and
// returns the fixture; it skips when a target itself has relations.
func relWorld(t *testing.T, c *client, cat *catalog.Catalog, f *catalog.Form, spec map[string]any, space string) {
	t.Helper()
	for _, rel := range f.Relations {
		k, ok := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
		if !ok || len(k.DefaultCreate().Relations) > 0 || len(k.DefaultCreate().Fixtures) == 0 {
			t.Skipf("relation %s of %s needs a target with relations", rel.Pointer, f.Ref.Kind)
		}
		for _, n := range nodesIn(spec, rel.Pointer) {
			if c.read(k.DefaultCreate(), n, space).code == 200 {
				continue
			}
			c.create(k.DefaultCreate(), n, space, fixture(t, k.DefaultCreate())).status(201)
		}
	}
	servedTargets(t, c, cat, f, spec, space)
}

func TestImmutableFieldChangeRefused(t *testing.T) {
	cat := testCatalog(t)
	var f *catalog.Form
	for _, g := range cat.Forms() {
		simple := len(g.Relations) > 0 && len(g.Fixtures) > 0 && g.HasCapability("update") && len(g.Immutable) > 0
		for _, rel := range g.Relations {
			k, ok := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
			simple = simple && ok && len(k.DefaultCreate().Relations) == 0 && rel.Binding == nil && len(nodesIn(fixture(t, g), rel.Pointer)) == 1
		}
		if simple {
			f = g
			break
		}
	}
	if f == nil {
		t.Skip("no updatable Form with immutable relations to simple targets")
	}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	relWorld(t, c, cat, f, spec, "prod")
	c.create(f, "thing", "prod", spec).status(201)
	var ptr string
	for p := range f.Immutable {
		ptr = p
	}
	moved := map[string]any{}
	for k, v := range spec {
		moved[k] = v
	}
	node := map[string]any{}
	for k, v := range spec[ptr[1:]].(map[string]any) {
		node[k] = v
	}
	node["name"] = "elsewhere"
	moved[ptr[1:]] = node
	relWorld(t, c, cat, f, moved, "prod")
	r := c.update(f, "thing", "prod", moved, 1).refused("invalid_argument", 400)
	if !contains(r.body, ptr) {
		t.Fatalf("the refusal must name %s: %s", ptr, r.body)
	}
}

func TestExternalChangeProbeSkipsDependencyScan(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	f, spec := endpointWorld(t, c, cat, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	rel := f.Relations[0]
	k, _ := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
	target := k.DefaultCreate()
	name := nodesIn(spec, rel.Pointer)[0]
	c.del(target, name, "prod", 1).refused("dependency_in_use", 409)
	c.do("DELETE", resPath(target, name)+exactQuery(target, "prod"), map[string]string{"Takoform-Expected-Generation": "1",
		"Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "external-change"}, nil).status(204)
	c.read(f, "edge", "prod").status(200)
}

// Cron fields are parsed, not matched, and hostname fields canonicalized, by the
// spec gate (fields found by their schema pattern in the catalog).
func TestSpecGateParsesCronAndCanonicalizesHostnames(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	tried := 0
	for _, f := range cat.Forms() {
		if len(f.Fixtures) == 0 {
			continue
		}
		for _, fl := range f.Fields {
			spec := fixture(t, f)
			switch {
			case fl.Kind == catalog.FieldString && len(fl.Pattern) > 200: // the cron grammar's pattern
				spec[fl.Wire] = "0 24 * * *"
				m := c.do("POST", api+"/resources/validate", nil, body(f, "x", "prod", spec, nil)).status(200).json()
				if m["valid"] != false {
					t.Fatalf("%s %s: cron 0 24 * * * passed validate", f.Ref.Kind, fl.Wire)
				}
				tried++
			case fl.Kind == catalog.FieldString && len(fl.Pattern) > 100 && contains([]byte(fl.Pattern), `\.?$`):
				spec[fl.Wire] = "API.Example.com."
				r := c.do("POST", api+"/resources/prepare", nil, body(f, "x", "prod", spec, nil)).status(200)
				if !contains(r.body, `"api.example.com"`) {
					t.Fatalf("%s %s: prepare did not echo the canonical hostname: %s", f.Ref.Kind, fl.Wire, r.body)
				}
				tried++
			}
		}
	}
	if tried == 0 {
		t.Skip("the catalog has no cron or hostname field")
	}
}

func TestSeedMakesIdentifiersReproducible(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	uids := func(seed int64) []string {
		sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Seed: seed})
		c := newClient(t, sim.URL, "sim-primary")
		var out []string
		for _, n := range []string{"a", "b"} {
			u, _, _ := meta(t, c.create(f, n, "prod", fixture(t, f)).status(201))
			out = append(out, u)
		}
		return out
	}
	a, b, other := uids(7), uids(7), uids(8)
	if fmt.Sprint(a) != fmt.Sprint(b) || fmt.Sprint(a) == fmt.Sprint(other) || a[0] == a[1] {
		t.Fatalf("seed 7: %v and %v; seed 8: %v", a, b, other)
	}
}
