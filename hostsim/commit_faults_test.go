package hostsim_test

import (
	"fmt"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// The commit faults: an accepted (202) mutation commits although its fence
// went stale or its name passed to another incarnation.
func TestAsyncCommitFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	settled := func(id string) opDoc {
		for i := 0; i < 10; i++ {
			if d, _ := poll(t, c, id); d.Done {
				return d
			}
		}
		t.Fatalf("operation %s did not settle", id)
		return opDoc{}
	}
	ends := func(d opDoc, code string) {
		t.Helper()
		got := ""
		if d.Error != nil {
			got = d.Error.Code
		}
		if got != code {
			t.Fatalf("the operation ended with error %q, want %q", got, code)
		}
	}
	async := map[string]string{"Takoform-Conformance-Probe": "async"}
	n := 0
	// staleUpdate accepts an update at generation 1, then moves the resource to 2.
	staleUpdate := func() opDoc {
		n++
		name := fmt.Sprintf("cf%d", n)
		c.create(f, name, "prod", spec).status(201)
		alt := changed(t, f, spec)
		pd := c.prepare(f, name, "prod", alt, 1)
		h := map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()}
		for k, v := range async {
			h[k] = v
		}
		op := accepted(t, c.do("PUT", resPath(f, name), h, body(f, name, "prod", alt, map[string]any{"review": map[string]any{"prepareDigest": pd}})))
		c.update(f, name, "prod", changed(t, f, alt), 1).status(200)
		return settled(op.ID)
	}
	broken(t, sim, "commit.skip-fences",
		func() { ends(staleUpdate(), "generation_conflict") },
		func() { ends(staleUpdate(), "") })
	// replacedDelete accepts a delete of one incarnation, then re-creates the name.
	replacedDelete := func() opDoc {
		n++
		name := fmt.Sprintf("ci%d", n)
		c.create(f, name, "prod", spec).status(201)
		op := accepted(t, c.do("DELETE", resPath(f, name)+exactQuery(f, "prod"), map[string]string{
			"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "async"}, nil))
		c.del(f, name, "prod", 1).status(204)
		c.create(f, name, "prod", spec).status(201)
		return settled(op.ID)
	}
	broken(t, sim, "commit.skip-identity",
		func() { ends(replacedDelete(), "uid_mismatch") },
		func() { ends(replacedDelete(), "") })
}

// support.unenforced: an apply outside the profile's narrowing is accepted.
func TestSupportUnenforcedFault(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "tight-limits"})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	fl, ok := f.Field("messageRetentionSeconds")
	if f.Ref.Kind != kQueue || !ok || fl.Max == nil || *fl.Max <= 86400 {
		t.Skipf("%s has no messageRetentionSeconds above the 86400 tight-limits allows", f.Ref.Kind)
	}
	n := 0
	outside := func() *reply {
		n++
		s := map[string]any{}
		for k, v := range spec {
			s[k] = v
		}
		s["messageRetentionSeconds"] = *fl.Max // tight-limits narrows it to 60..86400
		return c.create(f, fmt.Sprintf("su%d", n), "prod", s)
	}
	broken(t, sim, "support.unenforced",
		func() { outside().refused("unsupported_capability", 422) },
		func() { outside().status(201) })
}

// immutable.ignore: a consumer's immutable queue may change.
func TestImmutableIgnoreFault(t *testing.T) {
	sim, w := deployedWorld(t, hostsim.Config{})
	w.create(kConsumer, "qi", consumerSpec(w, "api", "events", "")).status(201)
	moved := consumerSpec(w, "api", "dead", "")
	f := w.f(kConsumer)
	if !f.Immutable["/queue"] {
		t.Skipf("%s does not declare /queue immutable", f.Ref)
	}
	w.c.update(f, "qi", "prod", moved, 1).refused("invalid_argument", 400)
	arm(t, sim, "immutable.ignore,resource=qi")
	w.c.update(f, "qi", "prod", moved, 1).status(200)
	disarm(t, sim)
	w.c.update(f, "qi", "prod", consumerSpec(w, "api", "events", ""), 2).refused("invalid_argument", 400)
}
