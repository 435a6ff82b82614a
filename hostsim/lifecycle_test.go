package hostsim_test

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestLifecycleCreateUpdateReadDelete(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)

	created := c.create(f, "orders", "prod", spec).status(201)
	uid, gen, rev := meta(t, created)
	if gen != "1" || rev != "1" || created.header.Get("ETag") != `"1"` {
		t.Fatalf("create: generation %s revision %s ETag %s, want 1 1 \"1\"", gen, rev, created.header.Get("ETag"))
	}
	st := created.json()["status"].(map[string]any)
	if _, has := st["outputs"]; has {
		t.Fatalf("create of %s (no outputs declared) served status.outputs: %s", f.Ref.Kind, created.body)
	}
	read := c.read(f, "orders", "prod").status(200)
	if string(read.body) != string(created.body) {
		t.Fatalf("read differs from the create answer:\n%s\n%s", read.body, created.body)
	}
	// Re-applying the identical spec moves nothing.
	same := c.update(f, "orders", "prod", spec, 1).status(200)
	if _, g, r := meta(t, same); g != "1" || r != "1" {
		t.Fatalf("identical re-apply moved generation/revision to %s/%s", g, r)
	}
	up := c.update(f, "orders", "prod", changed(t, f, spec), 1).status(200)
	uid2, gen2, rev2 := meta(t, up)
	if uid2 != uid || gen2 != "2" || rev2 != "2" || up.header.Get("ETag") != `"2"` {
		t.Fatalf("update: uid %s gen %s rev %s, want %s 2 2", uid2, gen2, rev2, uid)
	}
	c.del(f, "orders", "prod", 1).refused("generation_conflict", 412)
	c.del(f, "orders", "prod", 2).status(204)
	c.read(f, "orders", "prod").refused("resource_not_found", 404)
	again := c.create(f, "orders", "prod", spec).status(201)
	if u, _, _ := meta(t, again); u == uid {
		t.Fatalf("re-create reused uid %s", uid)
	}
	n, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if n.Mutations != 4 {
		t.Fatalf("mutations = %d, want 4 (create, update, delete, create)", n.Mutations)
	}
}
