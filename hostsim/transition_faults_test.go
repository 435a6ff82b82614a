package hostsim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// The Form transition rule faults: an unclaimed lifecycle, unverified digests
// and undeclared pairs.
func TestTransitionRuleFaults(t *testing.T) {
	cat := testCatalog(t)
	var tr *catalog.Transition
	var from, to *catalog.Form
	for _, x := range cat.Transitions() {
		f, ok1 := cat.Form(x.From)
		g, ok2 := cat.Form(x.To)
		if ok1 && ok2 && len(f.Relations) == 0 && len(f.Fixtures) > 0 {
			tr, from, to = x, f, g
			break
		}
	}
	if tr == nil {
		t.Skip("the catalog declares no transition between Forms without relations")
	}
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, from)
	n := 0
	// post creates a fresh resource and posts the transition that edit shapes.
	post := func(edit func(*transition.Request), extra map[string]string) (string, *reply) {
		n++
		name := fmt.Sprintf("tx%d", n)
		uid, _, _ := meta(t, c.create(from, name, "prod", spec).status(201))
		req, err := transition.NewRequest(tr, from, to, "prod", name, uid, 1, 1, spec)
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			edit(req)
		}
		b, _ := json.Marshal(req)
		h := map[string]string{"Idempotency-Key": req.OperationID, "Takoform-Expected-Generation": "1", "If-Match": `"1"`}
		for k, v := range extra {
			h[k] = v
		}
		return name, c.do("POST", resPath(from, name)+"/form-transitions?space=prod", h, b)
	}
	wrongDigest := func(r *transition.Request) {
		r.TransitionEvidence.Digest = "sha256:" + strings.Repeat("0", 64)
	}
	broken(t, sim, "transition.unverified",
		func() { _, r := post(wrongDigest, nil); r.refused("invalid_argument", 400) },
		func() { _, r := post(wrongDigest, nil); r.status(200) })
	undeclared := func(r *transition.Request) {
		fake := &catalog.Transition{Marker: tr.Marker + "-undeclared", From: tr.From, To: tr.To}
		x, err := transition.NewRequest(fake, from, to, "prod", r.Resource.Metadata.Name, r.Expected.UID, 1, 1, spec)
		if err != nil {
			t.Fatal(err)
		}
		*r = *x
	}
	broken(t, sim, "transition.any-pair",
		func() { _, r := post(undeclared, nil); r.refused("invalid_argument", 400) },
		func() { _, r := post(undeclared, nil); r.status(200) })
	// A held transition (probe transition-hold) keeps its claim on the resource.
	held, _ := post(nil, map[string]string{"Takoform-Conformance-Probe": "transition-hold"})
	observe := func() *reply {
		return c.do("POST", resPath(from, held)+"/observe"+exactQuery(from, "prod"),
			map[string]string{"Idempotency-Key": newKey(), "Takoform-Expected-Generation": "1"}, nil)
	}
	broken(t, sim, "transition.no-claim",
		func() { observe().refused("resource_busy", 409) },
		func() { observe().status(200) })
	// A replayed POST answers the stored receipt byte for byte.
	uid, _, _ := meta(t, c.create(from, "txr", "prod", spec).status(201))
	req, err := transition.NewRequest(tr, from, to, "prod", "txr", uid, 1, 1, spec)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(req)
	h := map[string]string{"Idempotency-Key": req.OperationID, "Takoform-Expected-Generation": "1", "If-Match": `"1"`}
	send := func() []byte {
		return c.do("POST", resPath(from, "txr")+"/form-transitions?space=prod", h, b).status(200).body
	}
	stored := send()
	broken(t, sim, "transition.re-render", func() {
		if !bytes.Equal(send(), stored) {
			t.Fatalf("the replay is not the stored receipt")
		}
	}, func() {
		if bytes.Equal(send(), stored) {
			t.Fatalf("transition.re-render replayed the stored bytes")
		}
	})
	unknown := resPath(from, "txr") + "/form-transitions/formtx_" + strings.Repeat("0", 64) + "?space=prod"
	broken(t, sim, "transition.readback-wrong",
		func() { c.do("GET", unknown, nil, nil).refused("resource_not_found", 404) },
		func() { c.do("GET", unknown, nil, nil).refused("operation_not_found", 404) })
	// A replay of the committed txr must not move its generation again.
	gen := func() string { _, g, _ := meta(t, c.read(to, "txr", "prod").status(200)); return g }
	before := gen()
	arm(t, sim, "transition.re-dispatch")
	send()
	if g := gen(); g == before {
		t.Fatalf("transition.re-dispatch: a replay left the generation at %s", g)
	}
	disarm(t, sim)
	before = gen()
	send()
	if g := gen(); g != before {
		t.Fatalf("disarmed, a replay moved the generation from %s to %s", before, g)
	}
	// A rejected transition keeps the resource at its generation.
	rejected := func() string {
		name, r := post(nil, map[string]string{"Takoform-Conformance-Probe": "transition-reject"})
		r.refused("form_identity_conflict", 409)
		_, g, _ := meta(t, c.read(from, name, "prod").status(200))
		return g
	}
	broken(t, sim, "transition.reject-advances", func() {
		if g := rejected(); g != "1" {
			t.Fatalf("a rejected transition moved the generation to %s", g)
		}
	}, func() {
		if g := rejected(); g == "1" {
			t.Fatalf("transition.reject-advances kept generation 1")
		}
	})
	// Another request under txr's committed operationId: refused, unless both
	// the operationId recomputation and the ledger comparison are off.
	other := *req
	alt, _ := json.Marshal(to.Materialize(changedAny(t, to, spec)))
	other.Resource.Spec = alt
	ob, _ := json.Marshal(other)
	resend := func() *reply { return c.do("POST", resPath(from, "txr")+"/form-transitions?space=prod", h, ob) }
	if r := resend(); r.code != 400 && r.code != 409 {
		t.Fatalf("another request under a committed operationId answered %d: %s", r.code, r.body)
	}
	arm(t, sim, "transition.request-unchecked")
	arm(t, sim, "transition.unverified")
	if r := resend().status(200); !bytes.Equal(r.body, stored) {
		t.Fatalf("transition.request-unchecked answered %s, not the stored receipt", r.body)
	}
	disarm(t, sim)
	if r := resend(); r.code != 400 && r.code != 409 {
		t.Fatalf("disarmed, another request under a committed operationId answered %d", r.code)
	}
}

// changedAny returns spec with one mutable integer field of f moved within its bounds.
func changedAny(t *testing.T, f *catalog.Form, spec map[string]any) map[string]any {
	t.Helper()
	for _, fl := range f.Fields {
		if fl.Kind == catalog.FieldInteger && fl.Min != nil && fl.Max != nil && *fl.Max > *fl.Min {
			out := map[string]any{}
			for k, v := range spec {
				out[k] = v
			}
			out[fl.Wire] = *fl.Min
			if fmt.Sprint(spec[fl.Wire]) == fmt.Sprint(*fl.Min) {
				out[fl.Wire] = *fl.Max
			}
			return out
		}
	}
	t.Skipf("%s has no integer field to change", f.Ref)
	return nil
}
