package hostsim_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestFormsAndDefinitions(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	for _, f := range cat.Forms() {
		r := c.do("GET", api+"/forms"+exactQuery(f, "prod"), nil, nil).status(200)
		var fr struct {
			Forms []struct {
				Identity struct {
					FormRef       wire.FormRef `json:"formRef"`
					PackageDigest string       `json:"packageDigest"`
				} `json:"identity"`
				Installed  bool     `json:"installed"`
				Operations []string `json:"operations"`
			} `json:"forms"`
		}
		_ = json.Unmarshal(r.body, &fr)
		if len(fr.Forms) != 1 || fr.Forms[0].Identity.FormRef != f.Ref || !fr.Forms[0].Installed ||
			fmt.Sprint(fr.Forms[0].Operations) != fmt.Sprint(f.Capabilities) || fr.Forms[0].Identity.PackageDigest != f.PackageDigest {
			t.Fatalf("forms for %s: %s", f.Ref, r.body)
		}
		path := api + "/form-definitions/" + f.Ref.APIVersion + "/" + f.Ref.Kind + exactQuery(f, "prod")
		d := c.do("GET", path, nil, nil).status(200)
		var def struct {
			DesiredSchema json.RawMessage `json:"desiredSchema"`
			DisplayName   string          `json:"displayName"`
		}
		_ = json.Unmarshal(d.body, &def)
		got, _ := wire.Canonicalize(def.DesiredSchema)
		want, _ := wire.Canonicalize(f.DesiredJSON)
		if string(got) != string(want) || def.DisplayName != f.Title || contains(d.body, "outputSchema") {
			t.Fatalf("form-definition of %s differs from the installed desiredSchema", f.Ref)
		}
	}
}

func TestValidateAnswersDiagnostics(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-other-tenant")
	checked := 0
	for _, f := range cat.Forms() {
		for _, fx := range f.Fixtures {
			var spec map[string]any
			_ = json.Unmarshal(fx.Desired, &spec)
			r := c.do("POST", api+"/resources/validate", nil, body(f, "x", "prod", spec, nil)).status(200)
			if m := r.json(); m["valid"] != true || len(m["diagnostics"].([]any)) != 0 {
				t.Fatalf("%s fixture %s: %s", f.Ref, fx.Name, r.body)
			}
		}
		for _, nf := range f.NegativeFixtures {
			var spec map[string]any
			if json.Unmarshal(nf.Input, &spec) != nil || nf.Stage != "desired" {
				continue
			}
			r := c.do("POST", api+"/resources/validate", nil, body(f, "x", "prod", spec, nil)).status(200)
			m := r.json()
			if m["valid"] != false || len(m["diagnostics"].([]any)) == 0 {
				t.Fatalf("%s negative fixture %s: %s", f.Ref, nf.Name, r.body)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("the catalog holds no negative desired fixtures")
	}
	f := updatable(t, cat)
	bad := f.Ref
	bad.DefinitionVersion = "9.9.9"
	b := body(f, "x", "prod", fixture(t, f), nil)
	b = []byte(string(b[:len(b)-1]) + "}")
	var doc map[string]any
	_ = json.Unmarshal(b, &doc)
	doc["form"] = map[string]any{"formRef": bad}
	nb, _ := json.Marshal(doc)
	c.do("POST", api+"/resources/validate", nil, nb).refused("form_unknown", 404)
}

func TestPrepareBindsExactSpecAndFence(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	d1 := c.prepare(f, "orders", "prod", spec, 0)
	d2 := c.prepare(f, "orders", "prod", spec, 0)
	if d1 != d2 || !wire.ValidDigest(d1) {
		t.Fatalf("prepare is not deterministic: %s vs %s", d1, d2)
	}
	r := c.do("POST", api+"/resources/prepare", nil, body(f, "orders", "prod", spec, nil)).status(200)
	var out struct {
		Resource struct{ Spec json.RawMessage } `json:"resource"`
		Review   struct{ SpecDigest string }    `json:"review"`
	}
	_ = json.Unmarshal(r.body, &out)
	if dg, _ := wire.Digest(out.Resource.Spec); dg != out.Review.SpecDigest {
		t.Fatalf("specDigest %s does not digest the echoed spec (%s)", out.Review.SpecDigest, dg)
	}
	c.do("POST", api+"/resources/prepare", map[string]string{"Takoform-Expected-Generation": "1"},
		body(f, "orders", "prod", spec, nil)).refused("resource_not_found", 404)
	c.create(f, "orders", "prod", spec).status(201)
	c.do("POST", api+"/resources/prepare", nil, body(f, "orders", "prod", spec, nil)).refused("invalid_argument", 400)
	c.do("POST", api+"/resources/prepare", map[string]string{"Takoform-Expected-Generation": "2"},
		body(f, "orders", "prod", spec, nil)).refused("generation_conflict", 412)
	if c.prepare(f, "orders", "prod", spec, 1) == d1 {
		t.Fatal("a prepare under the existing uid and generation minted the create digest")
	}
	// Another tenant prepares the same name as a create: foreign resources are absent.
	other := newClient(t, sim.URL, "sim-other-tenant")
	other.prepare(f, "orders", "prod", spec, 0)
}

func TestApplyHeadersAndFences(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	pd := c.prepare(f, "orders", "prod", spec, 0)
	withReview := func(extra map[string]any) []byte {
		m := map[string]any{"review": map[string]any{"prepareDigest": pd}}
		for k, v := range extra {
			m[k] = v
		}
		return body(f, "orders", "prod", spec, m)
	}
	put := func(h map[string]string, b []byte) *reply { return c.do("PUT", resPath(f, "orders"), h, b) }
	put(map[string]string{"If-None-Match": "*"}, withReview(nil)).refused("invalid_argument", 400)
	put(map[string]string{"If-None-Match": "*", "Idempotency-Key": "bad key"}, withReview(nil)).refused("invalid_argument", 400)
	put(map[string]string{"If-None-Match": `"1"`, "Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	put(map[string]string{"Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	put(map[string]string{"If-None-Match": "*", "Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	put(map[string]string{"If-None-Match": "*", "If-Match": `"1"`, "Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	for _, fence := range []string{"0", "01", "+1", "1 2", "x"} {
		put(map[string]string{"Takoform-Expected-Generation": fence, "Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	}
	put(map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()}, withReview(map[string]any{"expectedUid": "u-1"})).refused("uid_mismatch", 409)
	put(map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()}, withReview(nil)).refused("resource_not_found", 404)
	// A prepareDigest of another spec does not bind this one.
	otherPD := c.prepare(f, "orders", "prod", changed(t, f, spec), 0)
	put(map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": otherPD}})).refused("invalid_argument", 400)
	// A digest minted for another tenant is foreign.
	foreign := newClient(t, sim.URL, "sim-other-tenant")
	foreign.do("PUT", resPath(f, "orders"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	// Body and path must agree.
	c.do("PUT", resPath(f, "other"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()}, withReview(nil)).refused("invalid_argument", 400)
	created := put(map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()}, withReview(nil)).status(201)
	uid, _, _ := meta(t, created)
	put(map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()}, withReview(nil)).refused("generation_conflict", 412)
	next := changed(t, f, spec)
	pd2 := c.prepare(f, "orders", "prod", next, 1)
	upd := func(h map[string]string, extra map[string]any) *reply {
		h["Idempotency-Key"] = newKey()
		m := map[string]any{"review": map[string]any{"prepareDigest": pd2}}
		for k, v := range extra {
			m[k] = v
		}
		return c.do("PUT", resPath(f, "orders"), h, body(f, "orders", "prod", next, m))
	}
	upd(map[string]string{"Takoform-Expected-Generation": "1"}, map[string]any{"expectedUid": "u-other"}).refused("uid_mismatch", 409)
	upd(map[string]string{"Takoform-Expected-Generation": "1"}, map[string]any{"expectedGeneration": "2"}).refused("invalid_argument", 400)
	upd(map[string]string{"Takoform-Expected-Generation": "1", "If-Match": `"7"`}, nil).refused("revision_conflict", 412)
	upd(map[string]string{"Takoform-Expected-Generation": "1", "If-Match": `W/"1"`}, nil).refused("invalid_argument", 400)
	upd(map[string]string{}, map[string]any{"expectedGeneration": "1", "expectedUid": uid}).status(200)
	upd(map[string]string{"Takoform-Expected-Generation": "1"}, nil).refused("generation_conflict", 412)
	if n, _ := sim.Admin.Counters(); n.Mutations != 2 {
		t.Fatalf("mutations = %d, want 2: refusals must not mutate", n.Mutations)
	}
}

func TestCapabilityRulesOnExistingResources(t *testing.T) {
	cat := testCatalog(t)
	f := noUpdate(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	c.create(f, "cache", "prod", spec).status(201)
	r := c.update(f, "cache", "prod", spec, 1).status(200)
	if _, g, _ := meta(t, r); g != "1" {
		t.Fatalf("spec-identical re-apply without update moved the generation to %s", g)
	}
	for _, g := range cat.Forms() {
		if g.Role == "revision" && len(g.Relations) == 0 && len(g.Fixtures) > 0 {
			spec := c.artifactSpec(g, fixture(t, g)) // a manifest is committed first (docs/protocol.md#artifacts)
			c.create(g, "rev", "prod", spec).status(201)
			c.update(g, "rev", "prod", spec, 1).refused("invalid_argument", 400)
			break
		}
	}
}

func TestIdempotentReplayAndRetirement(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	alice := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	pd := alice.prepare(f, "orders", "prod", spec, 0)
	h := map[string]string{"If-None-Match": "*", "Idempotency-Key": "create-orders"}
	b := body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})
	first := alice.do("PUT", resPath(f, "orders"), h, b).status(201)
	again := alice.do("PUT", resPath(f, "orders"), h, b).status(201)
	if string(first.body) != string(again.body) || first.header.Get("ETag") != again.header.Get("ETag") {
		t.Fatalf("replay differs:\n%s\n%s", first.body, again.body)
	}
	// Same key, other bytes: key reuse.
	alice.do("PUT", resPath(f, "orders"), h, append(b, ' ')).refused("invalid_argument", 400)
	// Another principal of the tenant runs fresh and meets the existing name.
	newClient(t, sim.URL, "sim-alternate").do("PUT", resPath(f, "orders"), h, b).refused("generation_conflict", 412)
	// Another tenant runs fresh with a foreign prepareDigest.
	newClient(t, sim.URL, "sim-other-tenant").do("PUT", resPath(f, "orders"), h, b).refused("invalid_argument", 400)
	if n, _ := sim.Admin.Counters(); n.Mutations != 1 {
		t.Fatalf("mutations = %d after one create and its replays, want 1", n.Mutations)
	}
	// Delete retires the record: the same bytes create a new incarnation.
	uid, _, _ := meta(t, first)
	alice.del(f, "orders", "prod", 1).status(204)
	third := alice.do("PUT", resPath(f, "orders"), h, b).status(201)
	if u, _, _ := meta(t, third); u == uid {
		t.Fatalf("retired record replayed uid %s", uid)
	}
	// A delete answer keeps replaying.
	dh := map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": "del-orders"}
	alice.do("DELETE", resPath(f, "orders")+exactQuery(f, "prod"), dh, nil).status(204)
	alice.do("DELETE", resPath(f, "orders")+exactQuery(f, "prod"), dh, nil).status(204)
}

func TestTenantIsolation(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	a := newClient(t, sim.URL, "sim-primary")
	b := newClient(t, sim.URL, "sim-other-tenant")
	spec := fixture(t, f)
	a.create(f, "orders", "prod", spec).status(201)
	b.read(f, "orders", "prod").refused("resource_not_found", 404)
	b.del(f, "orders", "prod", 1).refused("resource_not_found", 404)
	b.do("POST", api+"/resources/prepare", map[string]string{"Takoform-Expected-Generation": "1"},
		body(f, "orders", "prod", spec, nil)).refused("resource_not_found", 404)
	pd := a.prepare(f, "orders", "prod", spec, 1)
	b.do("PUT", resPath(f, "orders"), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()},
		body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})).refused("resource_not_found", 404)
	b.do("POST", resPath(f, "orders")+"/observe"+exactQuery(f, "prod"),
		map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()}, nil).refused("resource_not_found", 404)
	b.create(f, "orders", "prod", spec).status(201)
	// The second principal of tenant A shares the plane.
	newClient(t, sim.URL, "sim-alternate").read(f, "orders", "prod").status(200)
	a.update(f, "orders", "prod", changed(t, f, spec), 1).status(200)
	if _, g, _ := meta(t, b.read(f, "orders", "prod").status(200)); g != "1" {
		t.Fatalf("tenant B's resource moved with tenant A's update (generation %s)", g)
	}
}
