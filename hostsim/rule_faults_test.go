package hostsim_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func arm(t *testing.T, sim *hostsimtest.Sim, fault string) {
	t.Helper()
	if err := sim.Admin.ArmFault(fault); err != nil {
		t.Fatalf("arm %s: %v", fault, err)
	}
}

// Each rule fault switches off exactly the behaviour a conformance check measures.
func TestRuleFaultsBreakTheirRule(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{ConformanceProbes: true})
	t.Run("relations.ignore-missing", func(t *testing.T) {
		arm(t, sim, "relations.ignore-missing,kind="+kVersion)
		w.version("vm", "api", "b1", []string{"fetch"}, map[string]any{"kvBindings": binding(w, kKV, "CACHE", "nope")}).status(201)
	})
	t.Run("bindings.unchecked", func(t *testing.T) {
		w.create(kWorker, "idle", map[string]any{}).status(201)
		arm(t, sim, "bindings.unchecked,resource=vb")
		w.version("vb", "api", "b1", []string{"fetch"}, map[string]any{"serviceBindings": binding(w, kWorker, "IDLE", "idle")}).status(201)
	})
	t.Run("artifacts.no-export-scan", func(t *testing.T) {
		w.bundle("fo", `export default { async fetch() {} };`)
		arm(t, sim, "artifacts.no-export-scan,resource=vx")
		w.version("vx", "api", "fo", []string{"fetch", "scheduled"}, nil).status(201)
	})
	t.Run("aggregate.unchecked", func(t *testing.T) {
		w.create(kEndpoint, "ep", map[string]any{"worker": w.ref(kWorker, "api")}).status(201)
		arm(t, sim, "aggregate.unchecked,kind="+kEndpoint)
		w.create(kEndpoint, "ep2", map[string]any{"worker": w.ref(kWorker, "api")}).status(201)
	})
	t.Run("endpoint.reassign", func(t *testing.T) {
		a, _ := outputsOf(t, w.read(kEndpoint, "ep").status(200))
		arm(t, sim, "endpoint.reassign,resource=ep")
		b, _ := outputsOf(t, w.read(kEndpoint, "ep").status(200))
		if equalJSON(a, b) {
			t.Fatalf("endpoint.reassign kept the address %v", a)
		}
	})
	t.Run("delete.skip-dependents", func(t *testing.T) {
		w.create(kKV, "spare", map[string]any{}).status(201)
		w.version("vs", "api", "b1", []string{"fetch"}, map[string]any{"kvBindings": binding(w, kKV, "CACHE", "spare")}).status(201)
		arm(t, sim, "delete.skip-dependents,resource=spare")
		w.del(kKV, "spare", 1).status(204)
	})
	t.Run("relations.no-drift", func(t *testing.T) {
		// vs now pins a deleted namespace; the fault hides the drift.
		if r := readyIn(t, w.read(kVersion, "vs")); r.Reason != "DependencyMissing" {
			t.Fatalf("without the fault the version shows %+v", r)
		}
		arm(t, sim, "relations.no-drift,resource=vs")
		if r := readyIn(t, w.read(kVersion, "vs")); r.Status != "True" {
			t.Fatalf("relations.no-drift still renders %+v", r)
		}
	})
	t.Run("relations.no-repin", func(t *testing.T) {
		qc := consumerSpec(w, "api", "events", "")
		w.create(kConsumer, "qc", qc).status(201)
		w.externalDelete(kQueue, "events")
		w.settled(kQueue, "events", fixture(t, w.f(kQueue)))
		arm(t, sim, "relations.no-repin,resource=qc")
		if r := readyIn(t, w.c.update(w.f(kConsumer), "qc", "prod", qc, 1).status(200)); r.Reason != "ExternalChange" {
			t.Fatalf("a re-apply under relations.no-repin cleared the drift: %+v", r)
		}
	})
	t.Run("rendering.frozen", func(t *testing.T) {
		w.create(kWorker, "cold", map[string]any{}).status(201)
		w.version("cv", "cold", "b1", []string{"fetch"}, nil).status(201)
		arm(t, sim, "rendering.frozen,kind="+kDeployment)
		w.create(kDeployment, "cd", w.deployment("cold", map[string]int{"cv": 10000})).status(201)
		if r := readyIn(t, w.read(kWorker, "cold")); r.Revision != "1" {
			t.Fatalf("rendering.frozen still moved the worker to revision %s", r.Revision)
		}
	})
}

func TestArtifactFaults(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	c := newClient(t, sim.URL, "sim-primary")
	js := []byte(allHandlers)
	blob := wire.RawDigest(js)
	body := manifestOf("index.js", "application/javascript+module", len(js), blob)
	arm(t, sim, "artifacts.list-none,count=1")
	st := c.start(body).status(201).json()
	if fmt.Sprint(st["missingBlobs"]) != "[]" {
		t.Fatalf("artifacts.list-none answered %v", st["missingBlobs"])
	}
	id := fmt.Sprint(st["uploadId"])
	c.putBlob(id, blob, js).status(201)
	c.commit(id, newKey()).status(201)
	arm(t, sim, "artifacts.recommit,count=1")
	r := c.commit(id, newKey()).status(201)
	var out struct{ ManifestDigest string }
	_ = json.Unmarshal(r.body, &out)
	c.do("GET", api+"/artifacts/"+out.ManifestDigest, nil, nil).status(200)
	arm(t, sim, "artifacts.forget")
	c.do("GET", api+"/artifacts/"+out.ManifestDigest, nil, nil).refused("artifact_missing", 404)
}

// endpoint.shared-address gives two endpoints of two workers one address (the
// rule worker-endpoint-address-is-host-assigned measures); disarmed, each has
// its own again, the one it had before.
func TestEndpointSharedAddressBreaksDistinctAddresses(t *testing.T) {
	t.Parallel()
	sim, w := deployedWorld(t, hostsim.Config{})
	w.create(kEndpoint, "ep", map[string]any{"worker": w.ref(kWorker, "api")}).status(201)
	w.create(kWorker, "web", map[string]any{}).status(201)
	w.version("wv", "web", "b1", []string{"fetch"}, nil).status(201)
	w.create(kDeployment, "wd", w.deployment("web", map[string]int{"wv": 10000})).status(201)
	w.create(kEndpoint, "ep-web", map[string]any{"worker": w.ref(kWorker, "web")}).status(201)
	addresses := func() (map[string]any, map[string]any) {
		a, _ := outputsOf(t, w.read(kEndpoint, "ep").status(200))
		b, _ := outputsOf(t, w.read(kEndpoint, "ep-web").status(200))
		return a, b
	}
	a, b := addresses()
	if len(a) == 0 || equalJSON(a, b) {
		t.Fatalf("before the fault two endpoints of two workers have addresses %v and %v, want two different ones", a, b)
	}
	arm(t, sim, "endpoint.shared-address")
	if x, y := addresses(); !equalJSON(x, y) {
		t.Fatalf("endpoint.shared-address: the two endpoints answer %v and %v, want one address", x, y)
	}
	if fired(t, sim, "endpoint.shared-address") != 2 {
		t.Fatalf("endpoint.shared-address fired %d times over two reads, want 2", fired(t, sim, "endpoint.shared-address"))
	}
	disarm(t, sim)
	if x, y := addresses(); !equalJSON(x, a) || !equalJSON(y, b) {
		t.Fatalf("disarmed, the endpoints answer %v and %v, want their own %v and %v again", x, y, a, b)
	}
}
