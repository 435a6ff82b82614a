package hostsim_test

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// endpointWorld creates what a Form with outputs references and returns the
// Form and its spec (data-driven: every relation target is created from its
// first positive fixture when it has no relations itself).
func endpointWorld(t *testing.T, c *client, cat *catalog.Catalog, space string) (*catalog.Form, map[string]any) {
	t.Helper()
	f, spec := bareEndpointWorld(t, c, cat, space)
	servedTargets(t, c, cat, f, spec, space)
	return f, spec
}

// bareEndpointWorld creates the relation targets only (no worker is served).
func bareEndpointWorld(t *testing.T, c *client, cat *catalog.Catalog, space string) (*catalog.Form, map[string]any) {
	t.Helper()
	f := withOutputs(t, cat)
	spec := fixture(t, f)
	for _, rel := range f.Relations {
		for _, n := range nodesIn(spec, rel.Pointer) {
			k, ok := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
			if !ok || len(k.Versions) == 0 {
				t.Skipf("relation target %s is not in the catalog", rel.TargetKind)
			}
			target := k.DefaultCreate()
			if len(target.Relations) > 0 || len(target.Fixtures) == 0 {
				t.Skipf("relation target %s needs its own relations", rel.TargetKind)
			}
			c.create(target, n, space, fixture(t, target)).status(201)
		}
	}
	return f, spec
}

// nodesIn returns the names of reference nodes at a top-level relation pointer.
func nodesIn(spec map[string]any, pointer string) []string {
	v, ok := spec[pointer[1:]].(map[string]any)
	if !ok {
		return nil
	}
	n, _ := v["name"].(string)
	return []string{n}
}

func outputsOf(t *testing.T, r *reply) (map[string]any, bool) {
	var doc struct {
		Status struct {
			Outputs *map[string]any `json:"outputs"`
		} `json:"status"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatalf("%s: %v", r.what, err)
	}
	if doc.Status.Outputs == nil {
		return nil, false
	}
	return *doc.Status.Outputs, true
}

func TestOutputsExactOrOmitted(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f, spec := endpointWorld(t, c, cat, "prod")
	created := c.create(f, "edge", "prod", spec).status(201)
	out, ok := outputsOf(t, created)
	if !ok || len(out) != len(f.Outputs) {
		t.Fatalf("outputs %v, want exactly the %d declared members: %s", out, len(f.Outputs), created.body)
	}
	if err := f.ValidateOutputs(out); err != nil {
		t.Fatalf("served outputs do not validate: %v", err)
	}
	read := c.read(f, "edge", "prod").status(200)
	if o2, _ := outputsOf(t, read); !equalJSON(o2, out) {
		t.Fatalf("outputs changed between create and read: %v vs %v", out, o2)
	}
	// A second incarnation gets another address.
	c.del(f, "edge", "prod", 1).status(204)
	again, _ := outputsOf(t, c.create(f, "edge", "prod", spec).status(201))
	if equalJSON(again, out) {
		t.Fatalf("a new incarnation reused the address %v", out)
	}
	// A Form without outputs omits the member.
	g := updatable(t, cat)
	if _, has := outputsOf(t, c.create(g, "plain", "prod", fixture(t, g)).status(201)); has {
		t.Fatal("a Form that declares no outputs served status.outputs")
	}
}

func TestOutputFaults(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f, spec := endpointWorld(t, c, cat, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	first := f.Outputs[0].Wire
	check := func(fault string, want func(map[string]any, bool) bool) {
		t.Helper()
		if err := sim.Admin.ArmFault(fault); err != nil {
			t.Fatal(err)
		}
		out, has := outputsOf(t, c.read(f, "edge", "prod").status(200))
		if !want(out, has) {
			t.Fatalf("fault %s: outputs %v (present %v)", fault, out, has)
		}
		// count=1: the next read is honest again.
		if out, _ := outputsOf(t, c.read(f, "edge", "prod").status(200)); f.ValidateOutputs(out) != nil {
			t.Fatalf("fault %s fired beyond its count: %v", fault, out)
		}
	}
	check("outputs.omit="+first+",count=1", func(o map[string]any, _ bool) bool { _, ok := o[first]; return !ok && len(o) == len(f.Outputs)-1 })
	check("outputs.wrong-type,count=1,kind="+f.Ref.Kind, func(o map[string]any, _ bool) bool { return f.ValidateOutputs(o) != nil && len(o) == len(f.Outputs) })
	check("outputs.extra=surprise,count=1,resource=edge", func(o map[string]any, _ bool) bool { _, ok := o["surprise"]; return ok })
	// A fault scoped to another resource does not fire here.
	if err := sim.Admin.ArmFault("outputs.omit,resource=elsewhere"); err != nil {
		t.Fatal(err)
	}
	if out, _ := outputsOf(t, c.read(f, "edge", "prod").status(200)); f.ValidateOutputs(out) != nil {
		t.Fatalf("a fault scoped to another resource fired: %v", out)
	}
	g := updatable(t, cat)
	c.create(g, "plain", "prod", fixture(t, g)).status(201)
	if err := sim.Admin.ArmFault("outputs.empty-when-undeclared,count=1"); err != nil {
		t.Fatal(err)
	}
	r := c.read(g, "plain", "prod").status(200)
	if out, has := outputsOf(t, r); !has || len(out) != 0 {
		t.Fatalf("outputs.empty-when-undeclared: %s", r.body)
	}
	ev, _ := sim.Admin.Events(0)
	if !contains(ev, `"type":"fault"`) {
		t.Fatal("fault firings are not journaled")
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestRelationsResolveAndProtectTargets(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	f := withOutputs(t, cat)
	spec := fixture(t, f)
	// Missing target: resource_not_found before any mutation.
	c.create(f, "edge", "prod", spec).refused("resource_not_found", 404)
	_, spec = endpointWorld(t, c, cat, "prod")
	c.create(f, "edge", "prod", spec).status(201)
	rel := f.Relations[0]
	k, _ := cat.Kind(rel.TargetAPIVersion, rel.TargetKind)
	target := k.DefaultCreate()
	name := nodesIn(spec, rel.Pointer)[0]
	c.del(target, name, "prod", 1).refused("dependency_in_use", 409)
	c.del(f, "edge", "prod", 1).status(204)
	if target.Ref.Kind == kWorker { // what served the worker goes first
		w := &world{t: t, c: c, cat: cat, space: "prod"}
		w.del(kDeployment, name+"-d", 1).status(204)
		w.del(kVersion, name+"-v", 1).status(204)
		w.del(kBundle, name+"-b", 1).status(204)
	}
	c.del(target, name, "prod", 1).status(204)
}
