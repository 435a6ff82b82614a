package hostsim_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// The worker family's kinds, named once for the tests of the worker aggregate
// (docs/protocol.md#relations, docs/protocol.md#aggregate). The lane itself never names a kind (its roles
// table is data: internal/related/worker_roles.json).
const (
	kWorker     = "ModuleWorker"
	kBundle     = "WorkerBundle"
	kVersion    = "WorkerVersion"
	kDeployment = "WorkerDeployment"
	kEndpoint   = "WorkerEndpoint"
	kDomain     = "WorkerCustomDomain"
	kCron       = "WorkerCronTrigger"
	kConsumer   = "QueueConsumer"
	kKV         = "EdgeKVNamespace"
	kBucket     = "ObjectBucket"
	kSQLite     = "SQLiteDatabase"
	kQueue      = "AtLeastOnceQueue"
)

// allHandlers exports every handler of the runtime vocabulary.
const allHandlers = `export default { async fetch() { return new Response("ok"); }, async scheduled() {}, async queue() {} };`

// kindForm returns the newest Form of a kind of the family, or skips.
func kindForm(t testing.TB, cat *catalog.Catalog, kind string) *catalog.Form {
	t.Helper()
	for _, k := range cat.Kinds() {
		if k.Kind == kind {
			return k.DefaultCreate()
		}
	}
	t.Skipf("the catalog holds no %s", kind)
	return nil
}

// refTo is a reference node naming kind/name in f's group.
func refTo(f *catalog.Form, name string) map[string]any {
	return map[string]any{"apiVersion": f.Ref.APIVersion, "kind": f.Ref.Kind, "name": name}
}

// upload runs the artifact flow for one main module and returns the manifest digest.
func (c *client) upload(js string) string {
	c.t.Helper()
	blob := wire.RawDigest([]byte(js))
	manifest := map[string]any{"apiVersion": "artifacts.takoform.com/v1alpha1", "kind": "WorkerBundle", "mainModule": "index.js",
		"modules": []any{map[string]any{"name": "index.js", "mediaType": "application/javascript+module", "size": len(js), "digest": blob}}}
	b, _ := json.Marshal(map[string]any{"manifest": manifest})
	st := c.do("POST", api+"/artifacts/uploads", map[string]string{"Idempotency-Key": newKey()}, b).status(201).json()
	id := fmt.Sprint(st["uploadId"])
	if miss, _ := st["missingBlobs"].([]any); len(miss) > 0 {
		c.do("PUT", api+"/artifacts/uploads/"+id+"/blobs/"+blob, nil, []byte(js)).status(201)
	}
	out := c.do("POST", api+"/artifacts/uploads/"+id+"/commit", map[string]string{"Idempotency-Key": newKey()}, nil).status(201).json()
	return fmt.Sprint(out["manifestDigest"])
}

// world builds worker-family resources in one space over HTTP.
type world struct {
	t     testing.TB
	c     *client
	cat   *catalog.Catalog
	space string
}

func (w *world) f(kind string) *catalog.Form { return kindForm(w.t, w.cat, kind) }

func (w *world) ref(kind, name string) map[string]any { return refTo(w.f(kind), name) }

// create prepares and creates; when prepare refuses the spec, the apply is sent
// with a well-formed digest so the answer is apply's own (the spec gate runs first).
func (w *world) create(kind, name string, spec map[string]any) *reply {
	w.t.Helper()
	f := w.f(kind)
	pr := w.c.do("POST", api+"/resources/prepare", nil, body(f, name, w.space, spec, nil))
	pd := "sha256:" + strings.Repeat("0", 64)
	if pr.code == 200 {
		pd = fmt.Sprint(pr.json()["review"].(map[string]any)["prepareDigest"])
	}
	return w.c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, name, w.space, spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
}

// settled creates and, when the host answers 202, polls the operation to its end.
func (w *world) settled(kind, name string, spec map[string]any) {
	w.t.Helper()
	r := w.create(kind, name, spec)
	if r.code != 202 {
		r.status(201)
		return
	}
	var env struct{ Operation struct{ ID string } }
	_ = json.Unmarshal(r.body, &env)
	for i := 0; i < 5; i++ {
		op := w.c.do("GET", api+"/operations/"+env.Operation.ID, nil, nil).status(200).json()
		if op["done"] == true {
			if op["error"] != nil {
				w.t.Fatalf("create %s %s failed at commit: %v", kind, name, op["error"])
			}
			return
		}
	}
	w.t.Fatalf("create %s %s never completed", kind, name)
}

func (w *world) read(kind, name string) *reply { return w.c.read(w.f(kind), name, w.space) }

func (w *world) del(kind, name string, fence int64) *reply {
	return w.c.del(w.f(kind), name, w.space, fence)
}

// bundle uploads js and creates a bundle resource naming it.
func (w *world) bundle(name, js string) {
	w.t.Helper()
	w.create(kBundle, name, map[string]any{"manifestDigest": w.c.upload(js)}).status(201)
}

// version creates a version of worker on bundle declaring handlers.
func (w *world) version(name, worker, bundle string, handlers []string, extra map[string]any) *reply {
	w.t.Helper()
	spec := map[string]any{"worker": w.ref(kWorker, worker), "bundle": w.ref(kBundle, bundle), "handlers": handlers}
	for k, v := range extra {
		spec[k] = v
	}
	return w.create(kVersion, name, spec)
}

// weights is a deployment spec weighting versions.
func (w *world) deployment(worker string, weights map[string]int) map[string]any {
	var vs []any
	for v, n := range weights {
		vs = append(vs, map[string]any{"workerVersion": w.ref(kVersion, v), "weight": n})
	}
	return map[string]any{"worker": w.ref(kWorker, worker), "versions": vs}
}

// served creates worker (unless it exists) and makes it served: a bundle
// exporting every handler, a version declaring them and a deployment.
func (w *world) served(worker string) {
	w.t.Helper()
	if w.read(kWorker, worker).code != 200 {
		w.create(kWorker, worker, map[string]any{}).status(201)
	}
	if w.read(kDeployment, worker+"-d").code == 200 {
		return
	}
	w.bundle(worker+"-b", allHandlers)
	w.version(worker+"-v", worker, worker+"-b", []string{"fetch", "scheduled", "queue"}, nil).status(201)
	w.create(kDeployment, worker+"-d", w.deployment(worker, map[string]int{worker + "-v": 10000})).status(201)
}

// servedTargets makes every worker a fixture of f references served.
func servedTargets(t testing.TB, c *client, cat *catalog.Catalog, f *catalog.Form, spec map[string]any, space string) {
	w := &world{t: t, c: c, cat: cat, space: space}
	for _, rel := range f.Relations {
		if rel.TargetKind != kWorker {
			continue
		}
		for _, n := range nodesIn(spec, rel.Pointer) {
			w.served(n)
		}
	}
}
