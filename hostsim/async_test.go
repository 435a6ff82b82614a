package hostsim_test

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

type opDoc struct {
	ID       string                 `json:"id"`
	Done     bool                   `json:"done"`
	Target   *struct{ UID string }  `json:"target"`
	Metadata struct{ Phase string } `json:"metadata"`
	Result   json.RawMessage        `json:"result"`
	Error    *struct {
		Code      string `json:"code"`
		Retryable bool   `json:"retryable"`
	} `json:"error"`
}

func accepted(t *testing.T, r *reply) opDoc {
	t.Helper()
	r.status(202)
	if r.header.Get("ETag") != "" {
		t.Fatalf("a 202 carries no ETag")
	}
	var env struct{ Operation opDoc }
	_ = json.Unmarshal(r.body, &env)
	if env.Operation.ID == "" || env.Operation.Done || env.Operation.Metadata.Phase != "Accepted" {
		t.Fatalf("202 body: %s", r.body)
	}
	return env.Operation
}

func poll(t *testing.T, c *client, id string) (opDoc, *reply) {
	t.Helper()
	r := c.do("GET", api+"/operations/"+id, nil, nil).status(200)
	var d opDoc
	_ = json.Unmarshal(r.body, &d)
	return d, r
}

func TestAsyncProbeOperationFlow(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	pd := c.prepare(f, "orders", "prod", spec, 0)
	h := map[string]string{"If-None-Match": "*", "Idempotency-Key": "k1", "Takoform-Conformance-Probe": "async"}
	b := body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
	op := accepted(t, c.do("PUT", resPath(f, "orders"), h, b))
	c.read(f, "orders", "prod").refused("resource_not_found", 404)
	// Another principal cannot see it.
	newClient(t, sim.URL, "sim-alternate").do("GET", api+"/operations/"+op.ID, nil, nil).refused("operation_not_found", 404)
	first, r1 := poll(t, c, op.ID)
	if first.Done || r1.header.Get("Retry-After") != "0" {
		t.Fatalf("first poll: done %v Retry-After %q", first.Done, r1.header.Get("Retry-After"))
	}
	if n, _ := sim.Admin.Counters(); n.Mutations != 0 {
		t.Fatal("a pending operation mutated")
	}
	second, r2 := poll(t, c, op.ID)
	if !second.Done || second.Metadata.Phase != "Succeeded" || second.Target == nil || second.Error != nil || r2.header.Get("Retry-After") != "" {
		t.Fatalf("second poll: %s", r2.body)
	}
	_, r3 := poll(t, c, op.ID)
	if string(r3.body) != string(r2.body) {
		t.Fatal("a terminal operation must answer the same bytes on every poll")
	}
	c.read(f, "orders", "prod").status(200)
	// The 202 replays byte for byte under its key.
	again := c.do("PUT", resPath(f, "orders"), h, b).status(202)
	var env struct{ Operation opDoc }
	_ = json.Unmarshal(again.body, &env)
	if env.Operation.ID != op.ID {
		t.Fatalf("replay answered another operation %s", env.Operation.ID)
	}
	// Cancel of a terminal operation answers it unchanged.
	cr := c.do("POST", api+"/operations/"+op.ID+"/cancel", map[string]string{"Idempotency-Key": "c1"}, nil).status(200)
	if string(cr.body) != string(r2.body) {
		t.Fatal("cancel changed a terminal operation")
	}
}

func TestAsyncCancelAndCommitTimeRevalidation(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	asyncCreate := func(name string) opDoc {
		pd := c.prepare(f, name, "prod", spec, 0)
		return accepted(t, c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(),
			"Takoform-Conformance-Probe": "async"}, body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})))
	}
	op := asyncCreate("a")
	cr := c.do("POST", api+"/operations/"+op.ID+"/cancel", map[string]string{"Idempotency-Key": newKey()}, nil).status(200)
	var d opDoc
	_ = json.Unmarshal(cr.body, &d)
	if !d.Done || d.Error == nil || d.Error.Code != "operation_cancelled" || d.Metadata.Phase != "Cancelled" {
		t.Fatalf("cancel: %s", cr.body)
	}
	c.read(f, "a", "prod").refused("resource_not_found", 404)
	// The name is taken before the accepted create commits: terminal generation_conflict.
	op = asyncCreate("b")
	c.create(f, "b", "prod", spec).status(201)
	poll(t, c, op.ID)
	final, r := poll(t, c, op.ID)
	if !final.Done || final.Error == nil || final.Error.Code != "generation_conflict" || final.Metadata.Phase != "Failed" {
		t.Fatalf("commit-time revalidation: %s", r.body)
	}
	// An async delete answers {"deleted": true}.
	dop := accepted(t, c.do("DELETE", resPath(f, "b")+exactQuery(f, "prod"), map[string]string{"Takoform-Expected-Generation": "1",
		"Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "async"}, nil))
	poll(t, c, dop.ID)
	fd, _ := poll(t, c, dop.ID)
	if string(fd.Result) != `{"deleted":true}` {
		t.Fatalf("delete result %s", fd.Result)
	}
	c.read(f, "b", "prod").refused("resource_not_found", 404)
	c.do("GET", api+"/operations/op_unknown", nil, nil).refused("operation_not_found", 404)
}

func TestAsyncProfileAndAdminCompletion(t *testing.T) {
	cat := testCatalog(t)
	p, _ := hostsim.LoadProfile("async")
	var f = updatable(t, cat)
	isAsync := false
	for _, k := range p.Async.Kinds {
		isAsync = isAsync || k == f.Ref.Kind
	}
	if !isAsync {
		t.Skipf("%s is not asynchronous under the async profile", f.Ref.Kind)
	}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "async"})
	c := newClient(t, sim.URL, "sim-primary")
	op := accepted(t, c.create(f, "orders", "prod", fixture(t, f)))
	_, r := poll(t, c, op.ID)
	if r.header.Get("Retry-After") != "1" {
		t.Fatalf("Retry-After %q, want 1", r.header.Get("Retry-After"))
	}
	doc, err := sim.Admin.Complete(op.ID)
	if err != nil || !contains(doc, `"phase":"Succeeded"`) {
		t.Fatalf("admin complete: %v %s", err, doc)
	}
	c.read(f, "orders", "prod").status(200)
	// apply.accept-unfinished keeps an operation running until the admin API ends it.
	if err := sim.Admin.ArmFault("apply.accept-unfinished,count=1"); err != nil {
		t.Fatal(err)
	}
	op = accepted(t, c.update(f, "orders", "prod", changed(t, f, fixture(t, f)), 1))
	for i := 0; i < 4; i++ {
		if d, _ := poll(t, c, op.ID); d.Done {
			t.Fatal("an unfinished operation completed by polling")
		}
	}
	doc, err = sim.Admin.Fail(op.ID, "backend_unavailable")
	if err != nil || !contains(doc, `"code":"backend_unavailable"`) || !contains(doc, `"retryable":true`) {
		t.Fatalf("admin fail: %v %s", err, doc)
	}
	if _, g, _ := meta(t, c.read(f, "orders", "prod")); g != "1" {
		t.Fatal("a failed operation committed")
	}
}
