package hostsim_test

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// An Idempotency-Key names one request: the same key with another If-Match or
// If-None-Match is another request under a used key, refused invalid_argument
// (docs/protocol.md#idempotency), never the first answer replayed and never
// run. The precondition headers belong to the fingerprint like the body does.
func TestIdempotencyKeyReusedWithOtherPreconditions(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)

	// A create under a key, resent without its If-None-Match.
	pd := c.prepare(f, "orders", "prod", spec, 0)
	created := body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
	h := map[string]string{"If-None-Match": "*", "Idempotency-Key": "create-orders"}
	c.do("PUT", resPath(f, "orders"), h, created).status(201)
	c.do("PUT", resPath(f, "orders"), map[string]string{"Idempotency-Key": "create-orders"}, created).
		refused("invalid_argument", 400)

	// An update fenced by If-Match under a key, resent with another If-Match.
	next := changed(t, f, spec)
	pd = c.prepare(f, "orders", "prod", next, 1)
	updated := body(f, "orders", "prod", next, map[string]any{"review": map[string]any{"prepareDigest": pd}})
	h = map[string]string{"Takoform-Expected-Generation": "1", "If-Match": `"1"`, "Idempotency-Key": "update-orders"}
	first := c.do("PUT", resPath(f, "orders"), h, updated).status(200)
	h["If-Match"] = `"2"`
	r := c.do("PUT", resPath(f, "orders"), h, updated).refused("invalid_argument", 400)
	if !contains(r.body, "update-orders") || !contains(r.body, "preconditions") {
		t.Fatalf("the refusal does not name the key and what differs: %s", r.body)
	}
	delete(h, "If-Match")
	c.do("PUT", resPath(f, "orders"), h, updated).refused("invalid_argument", 400)
	// The request as first sent still replays, and nothing ran twice.
	h["If-Match"] = `"1"`
	if again := c.do("PUT", resPath(f, "orders"), h, updated).status(200); string(again.body) != string(first.body) {
		t.Fatalf("the replay differs:\n%s\n%s", first.body, again.body)
	}
	if n, _ := sim.Admin.Counters(); n.Mutations != 2 {
		t.Fatalf("mutations = %d after a create, an update and refused resends, want 2", n.Mutations)
	}
}
