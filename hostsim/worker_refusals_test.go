package hostsim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// deployedWorld is a served "api" worker (version v1 binding everything, deployment d)
// and a served "auth" worker, in space prod.
func deployedWorld(t *testing.T, cfg hostsim.Config) (*hostsimtest.Sim, *world) {
	t.Helper()
	cfg.Catalog = testCatalog(t)
	sim := hostsimtest.Start(t, cfg)
	w := &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: cfg.Catalog, space: "prod"}
	w.create(kWorker, "api", map[string]any{}).status(201)
	w.served("auth")
	w.bundle("b1", allHandlers)
	w.stores()
	w.version("v1", "api", "b1", []string{"fetch", "scheduled", "queue"}, w.wholeVersion()).status(201)
	w.create(kDeployment, "d", w.deployment("api", map[string]int{"v1": 10000})).status(201)
	return sim, w
}

// refusedCreate asserts a create is refused with code and status and stores
// nothing: the name stays free and the mutation counter does not move.
func (w *world) refusedCreate(sim *hostsimtest.Sim, kind, name string, spec map[string]any, code string, status int) *reply {
	w.t.Helper()
	before, err := sim.Admin.Counters()
	if err != nil {
		w.t.Fatal(err)
	}
	r := w.create(kind, name, spec).refused(code, status)
	w.read(kind, name).refused("resource_not_found", 404)
	if after, _ := sim.Admin.Counters(); after.Mutations != before.Mutations {
		w.t.Fatalf("a refused %s create moved the mutation counter %d → %d", kind, before.Mutations, after.Mutations)
	}
	return r
}

func TestBindingRefusals(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	spec := func(extra map[string]any) map[string]any {
		s := map[string]any{"worker": w.ref(kWorker, "api"), "bundle": w.ref(kBundle, "b1"), "handlers": []any{"fetch"}}
		for k, v := range extra {
			s[k] = v
		}
		return s
	}
	// A missing binding target: resource_not_found naming the pointer.
	r := w.refusedCreate(sim, kVersion, "v2", spec(map[string]any{"kvBindings": binding(w, kKV, "CACHE", "nope")}), "resource_not_found", 404)
	if !contains(r.body, "/kvBindings/0/resource") {
		t.Fatalf("the refusal must name the pointer: %s", r.body)
	}
	// The environment namespace is one: a var and a binding named alike.
	w.refusedCreate(sim, kVersion, "v2", spec(map[string]any{"vars": map[string]any{"CACHE": "x"},
		"kvBindings": binding(w, kKV, "CACHE", "cache")}), "invalid_argument", 400)
	// A service binding to a worker that is not ready.
	w.create(kWorker, "idle", map[string]any{}).status(201)
	w.refusedCreate(sim, kVersion, "v2", spec(map[string]any{"serviceBindings": binding(w, kWorker, "IDLE", "idle")}), "unsupported_capability", 422)
	// A declared handler the main module does not export.
	w.bundle("fetch-only", `export default { async fetch() { return new Response("ok"); } };`)
	r = w.refusedCreate(sim, kVersion, "v2", map[string]any{"worker": w.ref(kWorker, "api"), "bundle": w.ref(kBundle, "fetch-only"),
		"handlers": []any{"fetch", "scheduled"}}, "invalid_argument", 400)
	if !contains(r.body, `\"scheduled\"`) {
		t.Fatalf("the refusal must name the missing handler: %s", r.body)
	}
}

// A binding the host does not install is unsupported_capability (binding check 2).
func TestBindingNotInstalledIsUnsupported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(path, []byte(`{"name": "no-kv-binding", "extends": "full", "bindings": {"exclude": ["module-worker.edge-kv@1.0.0"]}}`), 0o644)
	sim, w := func() (*hostsimtest.Sim, *world) {
		cat := testCatalog(t)
		sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: path})
		w := &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: cat, space: "prod"}
		w.create(kWorker, "api", map[string]any{}).status(201)
		w.bundle("b1", allHandlers)
		w.create(kKV, "cache", map[string]any{}).status(201)
		return sim, w
	}()
	w.refusedCreate(sim, kVersion, "v1", map[string]any{"worker": w.ref(kWorker, "api"), "bundle": w.ref(kBundle, "b1"),
		"handlers": []any{"fetch"}, "kvBindings": binding(w, kKV, "CACHE", "cache")}, "unsupported_capability", 422)
}

func TestDeploymentRefusals(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	w.version("v2", "api", "b1", []string{"fetch"}, nil).status(201)
	w.create(kWorker, "other", map[string]any{}).status(201)
	w.version("ov", "other", "b1", []string{"fetch"}, nil).status(201)
	// A second deployment of the same worker.
	mustSay(t, w.refusedCreate(sim, kDeployment, "d2", w.deployment("api", map[string]int{"v2": 10000}), "invalid_argument", 400), "at most one deployment")
	// Weights must sum to 10000.
	mustSay(t, w.refusedCreate(sim, kDeployment, "od", w.deployment("other", map[string]int{"ov": 9000}), "invalid_argument", 400), "sum to 9000")
	// Versions of another worker.
	mustSay(t, w.refusedCreate(sim, kDeployment, "od", w.deployment("other", map[string]int{"v2": 10000}), "invalid_argument", 400), "belongs to another worker")
	// The same version weighted twice.
	dup := w.deployment("other", map[string]int{"ov": 4000})
	dup["versions"] = append(dup["versions"].([]any), map[string]any{"workerVersion": w.ref(kVersion, "ov"), "weight": 6000})
	mustSay(t, w.refusedCreate(sim, kDeployment, "od", dup, "invalid_argument", 400), "already weighted")
	// Re-weighting the one deployment is fine.
	w.c.update(w.f(kDeployment), "d", "prod", w.deployment("api", map[string]int{"v1": 5000, "v2": 5000}), 1).status(200)
}

func TestAttachmentGateAndReverseGate(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	// No active deployment: no attachment.
	w.create(kWorker, "bare", map[string]any{}).status(201)
	w.refusedCreate(sim, kEndpoint, "ep", map[string]any{"worker": w.ref(kWorker, "bare")}, "unsupported_capability", 422)
	// A deployment weighting a version without "scheduled": no cron trigger.
	w.bundle("fo", `export default { async fetch() { return new Response("ok"); } };`)
	w.version("bv", "bare", "fo", []string{"fetch"}, nil).status(201)
	w.create(kDeployment, "bd", w.deployment("bare", map[string]int{"bv": 10000})).status(201)
	w.refusedCreate(sim, kCron, "c", map[string]any{"worker": w.ref(kWorker, "bare"), "cron": "0 * * * *"}, "unsupported_capability", 422)
	w.refusedCreate(sim, kConsumer, "qc", consumerSpec(w, "bare", "events", ""), "unsupported_capability", 422)
	// Reverse gate: api has a cron trigger, so its deployment cannot move to a version without "scheduled".
	w.create(kCron, "c", map[string]any{"worker": w.ref(kWorker, "api"), "cron": "0 * * * *"}).status(201)
	w.version("v2", "api", "fo", []string{"fetch"}, nil).status(201)
	w.c.update(w.f(kDeployment), "d", "prod", w.deployment("api", map[string]int{"v2": 10000}), 1).refused("unsupported_capability", 422)
	if r := readyIn(t, w.read(kDeployment, "d")); r.Generation != "1" {
		t.Fatalf("a refused re-weighting moved the deployment to generation %s", r.Generation)
	}
	// Deleting the deployment while the trigger lives: dependency_in_use; an inbound service binding too.
	w.del(kDeployment, "d", 1).refused("dependency_in_use", 409)
	w.del(kCron, "c", 1).status(204)
	w.version("caller", "bare", "fo", []string{"fetch"}, map[string]any{"serviceBindings": binding(w, kWorker, "API", "api")}).status(201)
	w.del(kDeployment, "d", 1).refused("dependency_in_use", 409)
	w.del(kVersion, "caller", 1).status(204)
	w.del(kDeployment, "d", 1).status(204)
}

func TestClaims(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	// One endpoint per worker.
	w.create(kEndpoint, "ep", map[string]any{"worker": w.ref(kWorker, "api")}).status(201)
	mustSay(t, w.refusedCreate(sim, kEndpoint, "ep2", map[string]any{"worker": w.ref(kWorker, "api")}, "invalid_argument", 400), "already claimed")
	// The same claim is decided on import.
	ef := w.f(kEndpoint)
	mustSay(t, w.c.do("POST", resPath(ef, "ep2")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(ef, "ep2", "prod", map[string]any{"worker": w.ref(kWorker, "api")}, map[string]any{"nativeId": "native-ep2"})).
		refused("invalid_argument", 400), "already claimed")
	w.read(kEndpoint, "ep2").refused("resource_not_found", 404)
	// One custom domain per canonical hostname per tenant, across spaces.
	w.create(kDomain, "dom", map[string]any{"worker": w.ref(kWorker, "api"), "hostname": "shop.example.com"}).status(201)
	w2 := &world{t: t, c: w.c, cat: w.cat, space: "staging"}
	w2.served("web")
	w2.refusedCreate(sim, kDomain, "dom", map[string]any{"worker": w2.ref(kWorker, "web"), "hostname": "SHOP.example.com."}, "invalid_argument", 400)
	// U-labels are refused.
	w2.refusedCreate(sim, kDomain, "dom", map[string]any{"worker": w2.ref(kWorker, "web"), "hostname": "bücher.example"}, "invalid_argument", 400)
	// Another tenant is irrelevant.
	w3 := &world{t: t, c: newClient(t, sim.URL, "sim-other-tenant"), cat: w.cat, space: "prod"}
	w3.served("web")
	w3.create(kDomain, "dom", map[string]any{"worker": w3.ref(kWorker, "web"), "hostname": "shop.example.com"}).status(201)
	// One consumer per queue; no dead-letter cycle.
	w.create(kConsumer, "qc", consumerSpec(w, "api", "events", "dead")).status(201)
	mustSay(t, w.refusedCreate(sim, kConsumer, "qc2", consumerSpec(w, "auth", "events", ""), "invalid_argument", 400), "already claimed")
	mustSay(t, w.refusedCreate(sim, kConsumer, "qc2", consumerSpec(w, "auth", "dead", "events"), "invalid_argument", 400), "leads back")
	w.create(kQueue, "solo", fixture(t, w.f(kQueue))).status(201)
	mustSay(t, w.refusedCreate(sim, kConsumer, "qc2", consumerSpec(w, "auth", "solo", "solo"), "invalid_argument", 400), "leads back")
	// Cron is parsed: hour 24 is refused.
	w.refusedCreate(sim, kCron, "c", map[string]any{"worker": w.ref(kWorker, "api"), "cron": "0 24 * * *"}, "invalid_argument", 400)
}

// Claims are decided again when a 202 commits (docs/protocol.md#aggregate).
func TestClaimsRevalidatedAtCommit(t *testing.T) {
	_, w := deployedWorld(t, hostsim.Config{Profile: "async"})
	a := accepted(t, w.create(kEndpoint, "ep1", map[string]any{"worker": w.ref(kWorker, "api")}))
	b := accepted(t, w.create(kEndpoint, "ep2", map[string]any{"worker": w.ref(kWorker, "api")}))
	poll(t, w.c, a.ID)
	if d, r := poll(t, w.c, a.ID); !d.Done || d.Error != nil {
		t.Fatalf("the first endpoint did not commit: %s", r.body)
	}
	poll(t, w.c, b.ID)
	if d, r := poll(t, w.c, b.ID); !d.Done || d.Error == nil || d.Error.Code != "invalid_argument" {
		t.Fatalf("the second endpoint must fail at commit with invalid_argument: %s", r.body)
	}
	w.read(kEndpoint, "ep2").refused("resource_not_found", 404)
}

func mustSay(t *testing.T, r *reply, fragment string) {
	t.Helper()
	if !contains(r.body, fragment) {
		t.Fatalf("%s: the refusal must say %q: %s", r.what, fragment, r.body)
	}
}

// A weighted version must be Ready=True: one whose binding target vanished is refused.
func TestDeploymentRefusesVersionThatIsNotReady(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{ConformanceProbes: true})
	w.create(kWorker, "other", map[string]any{}).status(201)
	w.create(kKV, "gone", map[string]any{}).status(201)
	w.version("ov", "other", "b1", []string{"fetch"}, map[string]any{"kvBindings": binding(w, kKV, "CACHE", "gone")}).status(201)
	w.externalDelete(kKV, "gone")
	mustSay(t, w.refusedCreate(sim, kDeployment, "od", w.deployment("other", map[string]int{"ov": 10000}), "invalid_argument", 400), "not Ready=True")
}
