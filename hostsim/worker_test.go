package hostsim_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// readyCond is a representation's Ready condition with its metadata.
type readyCond struct {
	Status, Reason, HostReason, Message string
	Generation, Revision                string
}

func readyIn(t testing.TB, r *reply) readyCond {
	t.Helper()
	var doc struct {
		Metadata struct{ Generation, Revision string } `json:"metadata"`
		Status   struct {
			Conditions []struct{ Type, Status, Reason, HostReason, Message string } `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatalf("%s: %v", r.what, err)
	}
	for _, c := range doc.Status.Conditions {
		if c.Type == "Ready" {
			return readyCond{c.Status, c.Reason, c.HostReason, c.Message, doc.Metadata.Generation, doc.Metadata.Revision}
		}
	}
	t.Fatalf("%s: no Ready condition: %s", r.what, r.body)
	return readyCond{}
}

func binding(w *world, kind, entry, target string) []any {
	return []any{map[string]any{"name": entry, "resource": w.ref(kind, target)}}
}

// consumerSpec is a queue consumer of worker on queue (dead letter dl, "" = none).
func consumerSpec(w *world, worker, queue, dl string) map[string]any {
	spec := fixture(w.t, w.f(kConsumer))
	spec["worker"], spec["queue"] = w.ref(kWorker, worker), w.ref(kQueue, queue)
	delete(spec, "deadLetterQueue")
	if dl != "" {
		spec["deadLetterQueue"] = w.ref(kQueue, dl)
	}
	return spec
}

// stores creates the storage the whole worker binds.
func (w *world) stores() {
	w.t.Helper()
	w.create(kKV, "cache", map[string]any{}).status(201)
	w.create(kBucket, "media", map[string]any{}).status(201)
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.settled(kQueue, "events", fixture(w.t, w.f(kQueue)))
	w.settled(kQueue, "dead", fixture(w.t, w.f(kQueue)))
}

// wholeVersion is the spec of a version of api binding KV, bucket, SQLite, a
// queue producer and the auth worker's service.
func (w *world) wholeVersion() map[string]any {
	return map[string]any{"vars": map[string]any{"LOG_LEVEL": "info"}, "requiredSensitiveVars": []any{"API_TOKEN"},
		"kvBindings": binding(w, kKV, "CACHE", "cache"), "bucketBindings": binding(w, kBucket, "MEDIA", "media"),
		"sqliteBindings": binding(w, kSQLite, "DB", "db"), "queueProducerBindings": binding(w, kQueue, "EVENTS", "events"),
		"serviceBindings": binding(w, kWorker, "AUTH", "auth")}
}

// wholeWorker builds a worker through HTTP — bundle upload, a version with
// KV/bucket/SQLite/queue/service bindings, deployment, endpoint, custom domain,
// cron trigger, queue consumer — then tears it down in dependency order.
func wholeWorker(t *testing.T, cat *catalog.Catalog) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	wholeWorkerWith(t, sim, newClient(t, sim.URL, "sim-primary").speak(cat.Lane()), cat)
}

// wholeWorkerWith is wholeWorker over the client c of sim.
func wholeWorkerWith(t *testing.T, sim *hostsimtest.Sim, c *client, cat *catalog.Catalog) {
	w := &world{t: t, c: c, cat: cat, space: "prod"}
	w.create(kWorker, "api", map[string]any{}).status(201)
	if r := readyIn(t, w.read(kWorker, "api")); r.Status != "False" || r.HostReason != `no-active-deployment worker "api"` || r.Revision != "1" {
		t.Fatalf("a worker without deployment: %+v", r)
	}
	w.served("auth")
	w.bundle("b1", allHandlers)
	w.stores()
	w.version("v1", "api", "b1", []string{"fetch", "scheduled", "queue"}, w.wholeVersion()).status(201)
	w.create(kDeployment, "d", w.deployment("api", map[string]int{"v1": 10000})).status(201)
	if r := readyIn(t, w.read(kWorker, "api")); r.Status != "True" || r.Reason != "Available" || r.Generation != "1" || r.Revision != "2" {
		t.Fatalf("the deployed worker: %+v, want Ready=True Available at generation 1 revision 2", r)
	}

	ef := w.f(kEndpoint)
	ep := w.create(kEndpoint, "ep", map[string]any{"worker": w.ref(kWorker, "api")}).status(201)
	out, ok := outputsOf(t, ep)
	if !ok || ef.ValidateOutputs(out) != nil || !strings.HasSuffix(fmt.Sprint(out["hostname"]), ".endpoints.sim.takokit.test") {
		t.Fatalf("endpoint outputs %v", out)
	}
	for _, o := range ef.Outputs {
		if o.Wire == "port" && out["port"] != float64(443) {
			t.Fatalf("endpoint port %v, want 443", out["port"])
		}
	}
	dom := w.create(kDomain, "dom", map[string]any{"worker": w.ref(kWorker, "api"), "hostname": "API.Example.com."}).status(201)
	if !contains(dom.body, `"hostname":"api.example.com"`) {
		t.Fatalf("the hostname is not canonicalized: %s", dom.body)
	}
	w.create(kCron, "cron", map[string]any{"worker": w.ref(kWorker, "api"), "cron": "*/5 * * * *"}).status(201)
	w.create(kConsumer, "qc", consumerSpec(w, "api", "events", "dead")).status(201)
	if o2, _ := outputsOf(t, w.read(kEndpoint, "ep").status(200)); !equalJSON(o2, out) {
		t.Fatalf("the endpoint address moved: %v then %v", out, o2)
	}
	// No Form without outputs carries the member.
	for _, k := range []string{kWorker, kVersion, kDeployment, kDomain, kCron, kConsumer, kKV} {
		if _, has := outputsOf(t, w.read(k, map[string]string{kWorker: "api", kVersion: "v1", kDeployment: "d",
			kDomain: "dom", kCron: "cron", kConsumer: "qc", kKV: "cache"}[k]).status(200)); has {
			t.Fatalf("%s carries status.outputs", k)
		}
	}

	// Out of order: every holder refuses.
	w.del(kDeployment, "d", 1).refused("dependency_in_use", 409)
	w.del(kWorker, "api", 1).refused("dependency_in_use", 409)
	w.del(kKV, "cache", 1).refused("dependency_in_use", 409)
	w.del(kBundle, "b1", 1).refused("dependency_in_use", 409)
	w.del(kWorker, "auth", 1).refused("dependency_in_use", 409)

	// Dependency order: attachments, the deployment, versions, bundles, storage, workers.
	for _, x := range [][2]string{{kConsumer, "qc"}, {kCron, "cron"}, {kDomain, "dom"}, {kEndpoint, "ep"}} {
		w.del(x[0], x[1], 1).status(204)
	}
	w.del(kDeployment, "d", 1).status(204)
	if r := readyIn(t, w.read(kWorker, "api")); r.Status != "False" || r.HostReason != `no-active-deployment worker "api"` || r.Generation != "1" || r.Revision != "3" {
		t.Fatalf("after the deployment went: %+v, want Provisioning at generation 1 revision 3", r)
	}
	w.del(kVersion, "v1", 1).status(204)
	w.del(kBundle, "b1", 1).status(204)
	for _, x := range [][2]string{{kKV, "cache"}, {kBucket, "media"}, {kSQLite, "db"}, {kQueue, "events"}, {kQueue, "dead"}, {kWorker, "api"}} {
		w.del(x[0], x[1], 1).status(204)
	}
	w.del(kDeployment, "auth-d", 1).status(204)
	w.del(kVersion, "auth-v", 1).status(204)
	w.del(kBundle, "auth-b", 1).status(204)
	w.del(kWorker, "auth", 1).status(204)
	st, _ := sim.Admin.State()
	if contains(st, `"uid":"u-`) {
		t.Fatalf("resources remain after the teardown: %s", st)
	}
}

func TestWholeWorkerThroughHTTP(t *testing.T) { wholeWorker(t, testCatalog(t)) }

// The same whole worker over the published family of each lane (the published
// reference families, docs/guides/conformance.md), each host speaking its catalog's lane.
func TestWholeWorkerOnThePublishedFamily(t *testing.T) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			dir := reftest.Lane(t, lane)
			cat, err := catalog.Load(os.DirFS(dir))
			if err != nil {
				t.Fatalf("load the published family from %s: %v", dir, err)
			}
			if cat.Lane() != lane {
				t.Fatalf("the published family in %s speaks %s", dir, cat.Lane())
			}
			wholeWorker(t, cat)
		})
	}
}

// A Form without outputs never carries the member: apply, read, observe and
// an Operation's result; the endpoint's operation result carries exact outputs.
func TestOutputsMemberInEveryResponseShape(t *testing.T) {
	_, w := deployedWorld(t, hostsim.Config{Profile: "async"})
	noOutputs := func(what string, b []byte) {
		t.Helper()
		if contains(b, `"outputs"`) {
			t.Fatalf("%s of a Form without outputs carries an outputs member: %s", what, b)
		}
	}
	noOutputs("apply", w.create(kKV, "k2", map[string]any{}).status(201).body)
	noOutputs("read", w.read(kKV, "k2").status(200).body)
	f := w.f(kKV)
	noOutputs("observe", w.c.do("POST", resPath(f, "k2")+"/observe"+exactQuery(f, "prod"),
		map[string]string{"Idempotency-Key": newKey(), "Takoform-Expected-Generation": "1"}, nil).status(200).body)
	op := accepted(t, w.create(kQueue, "q2", fixture(t, w.f(kQueue))))
	poll(t, w.c, op.ID)
	done, r := poll(t, w.c, op.ID)
	if !done.Done || done.Result == nil {
		t.Fatalf("queue create did not commit: %s", r.body)
	}
	noOutputs("operation result", r.body)
	op = accepted(t, w.create(kEndpoint, "ep", map[string]any{"worker": w.ref(kWorker, "api")}))
	poll(t, w.c, op.ID)
	done, r = poll(t, w.c, op.ID)
	var res struct {
		Resource struct {
			Status struct{ Outputs map[string]any } `json:"status"`
		} `json:"resource"`
	}
	_ = json.Unmarshal(done.Result, &res)
	if err := w.f(kEndpoint).ValidateOutputs(res.Resource.Status.Outputs); err != nil || len(res.Resource.Status.Outputs) == 0 {
		t.Fatalf("the endpoint's operation result outputs do not validate (%v): %s", err, r.body)
	}
}
