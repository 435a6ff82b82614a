package hostsim_test

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// disarm removes every run-time fault, so a subtest can show the rule is honoured again.
func disarm(t *testing.T, sim *hostsimtest.Sim) {
	t.Helper()
	if err := sim.Admin.DisarmFaults(); err != nil {
		t.Fatalf("disarm: %v", err)
	}
}

// Each identity, fence and idempotency fault breaks exactly its rule while
// armed, and the rule holds again once it is disarmed.
func TestIdentityAndFenceFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	observe := func(name string, h map[string]string) *reply {
		h["Idempotency-Key"] = newKey()
		return c.do("POST", resPath(f, name)+"/observe"+exactQuery(f, "prod"), h, nil)
	}
	c.create(f, "fx", "prod", spec).status(201)

	t.Run("fence.ignore", func(t *testing.T) {
		observe("fx", map[string]string{"Takoform-Expected-Generation": "2"}).refused("generation_conflict", 412)
		arm(t, sim, "fence.ignore,resource=fx")
		observe("fx", map[string]string{"Takoform-Expected-Generation": "2"}).status(200)
		disarm(t, sim)
		c.del(f, "fx", "prod", 2).refused("generation_conflict", 412)
	})
	t.Run("fence.refusal-writes", func(t *testing.T) {
		c.create(f, "fr", "prod", spec).status(201)
		stale := func() {
			observe("fr", map[string]string{"Takoform-Expected-Generation": "2"}).refused("generation_conflict", 412)
		}
		revision := func() string { _, _, rev := meta(t, c.read(f, "fr", "prod").status(200)); return rev }
		before := revision()
		stale()
		if now := revision(); now != before {
			t.Fatalf("a refused observe moved the revision from %s to %s", before, now)
		}
		arm(t, sim, "fence.refusal-writes,resource=fr")
		stale() // still refused, as ever
		moved := revision()
		if moved == before {
			t.Fatalf("fence.refusal-writes armed: the refused observe left revision %s; it must move it", before)
		}
		disarm(t, sim)
		stale()
		if now := revision(); now != moved {
			t.Fatalf("disarmed, a refused observe moved the revision from %s to %s", moved, now)
		}
	})
	t.Run("ifmatch.ignore", func(t *testing.T) {
		stale := map[string]string{"Takoform-Expected-Generation": "1", "If-Match": `"99"`}
		observe("fx", stale).refused("revision_conflict", 412)
		arm(t, sim, "ifmatch.ignore")
		observe("fx", stale).status(200)
		disarm(t, sim)
		observe("fx", stale).refused("revision_conflict", 412)
	})
	t.Run("uid.ignore-expected", func(t *testing.T) {
		create := func(name string) *reply {
			pd := c.prepare(f, name, "prod", spec, 0)
			return c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
				body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}, "expectedUid": "u-someone"}))
		}
		create("xa").refused("uid_mismatch", 409)
		arm(t, sim, "uid.ignore-expected")
		create("xa").status(201)
		disarm(t, sim)
		create("xb").refused("uid_mismatch", 409)
	})
	t.Run("create.overwrite", func(t *testing.T) {
		pd := c.prepare(f, "ow", "prod", spec, 0)
		create := func() *reply {
			return c.do("PUT", resPath(f, "ow"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
				body(f, "ow", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
		}
		create().status(201)
		create().refused("generation_conflict", 412)
		arm(t, sim, "create.overwrite,resource=ow")
		create().status(200)
		disarm(t, sim)
		create().refused("generation_conflict", 412)
	})
	t.Run("uid.reuse", func(t *testing.T) {
		old, _, _ := meta(t, c.create(f, "ru", "prod", spec).status(201))
		c.del(f, "ru", "prod", 1).status(204)
		arm(t, sim, "uid.reuse")
		if again, _, _ := meta(t, c.create(f, "ru", "prod", spec).status(201)); again != old {
			t.Fatalf("uid.reuse minted %s, not the deleted uid %s", again, old)
		}
		disarm(t, sim)
		c.del(f, "ru", "prod", 1).status(204)
		if fresh, _, _ := meta(t, c.create(f, "ru", "prod", spec).status(201)); fresh == old {
			t.Fatalf("disarmed, the re-create still reused uid %s", old)
		}
	})
	t.Run("etag.weak", func(t *testing.T) {
		arm(t, sim, "etag.weak,resource=fx")
		if tag := c.read(f, "fx", "prod").status(200).header.Get("ETag"); tag != `W/"1"` {
			t.Fatalf("etag.weak answered ETag %s", tag)
		}
		disarm(t, sim)
		if tag := c.read(f, "fx", "prod").status(200).header.Get("ETag"); tag != `"1"` {
			t.Fatalf("disarmed, the ETag is %s", tag)
		}
	})
	t.Run("generation.frozen", func(t *testing.T) {
		c.create(f, "gf", "prod", spec).status(201)
		arm(t, sim, "generation.frozen,resource=gf")
		if _, gen, rev := meta(t, c.update(f, "gf", "prod", changed(t, f, spec), 1).status(200)); gen != "1" || rev != "2" {
			t.Fatalf("generation.frozen answered generation %s revision %s", gen, rev)
		}
		disarm(t, sim)
		if _, gen, _ := meta(t, c.update(f, "gf", "prod", spec, 1).status(200)); gen != "2" {
			t.Fatalf("disarmed, a spec change answered generation %s", gen)
		}
	})
	t.Run("generation.on-status", func(t *testing.T) {
		c.create(f, "gs", "prod", spec).status(201)
		touch := map[string]string{"Takoform-Expected-Generation": "1", "Takoform-Conformance-Probe": "touch-status"}
		arm(t, sim, "generation.on-status,resource=gs")
		if _, gen, _ := meta(t, objectIn(t, observe("gs", touch).status(200))); gen != "2" {
			t.Fatalf("generation.on-status kept generation %s", gen)
		}
		disarm(t, sim)
		touch["Takoform-Expected-Generation"] = "2"
		if _, gen, rev := meta(t, objectIn(t, observe("gs", touch).status(200))); gen != "2" || rev != "3" {
			t.Fatalf("disarmed, a status change answered generation %s revision %s", gen, rev)
		}
	})
}

// objectIn re-wraps the observe answer's resource member as a reply.
func objectIn(t *testing.T, r *reply) *reply {
	t.Helper()
	res, ok := r.json()["resource"]
	if !ok {
		t.Fatalf("%s: no resource member: %s", r.what, r.body)
	}
	b, _ := json.Marshal(res)
	return &reply{t: t, code: r.code, header: r.header, body: b, what: r.what}
}

// The idempotency faults: records that never replay, never retire, or are
// shared by principals or tenants.
func TestIdempotencyFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	// keyed returns a create request of name under one key, to be sent as often as needed.
	keyed := func(name string) func(*client) *reply {
		pd := c.prepare(f, name, "prod", spec, 0)
		key := newKey()
		b := body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
		return func(by *client) *reply {
			return by.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": key}, b)
		}
	}
	t.Run("idempotency.no-replay", func(t *testing.T) {
		send := keyed("nr")
		first := send(c).status(201)
		if again := send(c).status(201); string(again.body) != string(first.body) {
			t.Fatalf("the resend did not replay: %s", again.body)
		}
		arm(t, sim, "idempotency.no-replay")
		send(c).refused("generation_conflict", 412)
		disarm(t, sim)
		send(c).status(201)
	})
	t.Run("idempotency.no-retire", func(t *testing.T) {
		send := keyed("nt")
		first := send(c).status(201)
		c.del(f, "nt", "prod", 1).status(204)
		arm(t, sim, "idempotency.no-retire")
		if again := send(c).status(201); string(again.body) != string(first.body) {
			t.Fatalf("idempotency.no-retire executed afresh: %s", again.body)
		}
		c.read(f, "nt", "prod").refused("resource_not_found", 404)
		disarm(t, sim)
		if fresh := send(c).status(201); string(fresh.body) == string(first.body) {
			t.Fatalf("disarmed, the retired record still replayed")
		}
	})
	for _, tc := range []struct{ fault, token string }{
		{"idempotency.tenant-wide", "sim-alternate"}, {"idempotency.host-wide", "sim-other-tenant"},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			other := newClient(t, sim.URL, tc.token)
			arm(t, sim, tc.fault)
			send := keyed("sh" + tc.token[4:7])
			first := send(c).status(201)
			if got := send(other).status(201); string(got.body) != string(first.body) {
				t.Fatalf("%s: %s was not given the recorded answer: %s", tc.fault, tc.token, got.body)
			}
			disarm(t, sim)
			send = keyed("si" + tc.token[4:7])
			send(c).status(201)
			if got := send(other); got.code == 201 {
				t.Fatalf("disarmed, %s was given the recorded answer", tc.token)
			}
		})
	}
}

// mutation.exclusive refuses a mutation that arrives while another is in flight.
func TestMutationExclusiveFault(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	n := 0
	// pair creates two names at once and returns their statuses.
	pair := func() [2]int {
		var reqs [2]func() *reply
		for i := range reqs {
			n++
			name := "ex" + string(rune('a'+n))
			pd := c.prepare(f, name, "prod", spec, 0)
			b := body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
			key := newKey()
			reqs[i] = func() *reply {
				return c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": key}, b)
			}
		}
		var codes [2]int
		done := make(chan struct{})
		go func() { codes[1] = reqs[1]().code; close(done) }()
		codes[0] = reqs[0]().code
		<-done
		return codes
	}
	arm(t, sim, "mutation.exclusive")
	if codes := pair(); codes[0] != 409 && codes[1] != 409 {
		t.Fatalf("mutation.exclusive let two concurrent creates through: %v", codes)
	}
	disarm(t, sim)
	if codes := pair(); codes != [2]int{201, 201} {
		t.Fatalf("disarmed, two concurrent creates answered %v", codes)
	}
}
