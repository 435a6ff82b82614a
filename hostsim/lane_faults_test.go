package hostsim_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// broken runs before (the rule holds), arms fault, runs during (the rule is
// broken), disarms and runs before again.
func broken(t *testing.T, sim *hostsimtest.Sim, fault string, before, during func()) {
	t.Helper()
	t.Run(fault, func(t *testing.T) {
		before()
		arm(t, sim, fault)
		during()
		disarm(t, sim)
		before()
	})
}

// The catalog, discovery, path and FormRef faults.
func TestCatalogSurfaceFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	c.create(f, "cs", "prod", fixture(t, f)).status(201)
	features := func() map[string]any {
		return c.do("GET", discovery, nil, nil).status(200).json()["features"].(map[string]any)
	}
	broken(t, sim, "discovery.omit-feature", func() {
		if features()["exact_form_ref"] != true {
			t.Fatalf("discovery lacks exact_form_ref")
		}
	}, func() {
		if _, ok := features()["exact_form_ref"]; ok {
			t.Fatalf("discovery.omit-feature kept exact_form_ref")
		}
	})
	activated := func() any {
		return c.do("GET", api+"/forms"+exactQuery(f, "prod"), nil, nil).status(200).json()["forms"].([]any)[0].(map[string]any)["activated"]
	}
	broken(t, sim, "forms.unavailable", func() {
		if activated() != true {
			t.Fatalf("an installed Form is not activated")
		}
	}, func() {
		if activated() != false {
			t.Fatalf("forms.unavailable still answers activated true")
		}
	})
	defPath := api + "/form-definitions/" + f.Ref.APIVersion + "/" + f.Ref.Kind + exactQuery(f, "prod")
	broken(t, sim, "definition.drift", func() {
		if contains(c.do("GET", defPath, nil, nil).status(200).body, "$comment") {
			t.Fatalf("the served desiredSchema carries $comment")
		}
	}, func() {
		if !contains(c.do("GET", defPath, nil, nil).status(200).body, "drifted") {
			t.Fatalf("definition.drift served the installed desiredSchema")
		}
	})
	withPkg := resPath(f, "cs") + exactQuery(f, "prod") + "&packageDigest=sha256%3A" + strings.Repeat("a", 64)
	broken(t, sim, "formref.package-key",
		func() { c.do("GET", withPkg, nil, nil).refused("invalid_argument", 400) },
		func() {
			c.do("GET", withPkg, nil, nil).status(200)
			// a query without packageDigest has nothing for the fault to drop: it does not fire
			n := fired(t, sim, "formref.package-key")
			c.do("GET", resPath(f, "cs")+exactQuery(f, "prod"), nil, nil).status(200)
			if m := fired(t, sim, "formref.package-key"); n != 1 || m != 1 {
				t.Fatalf("formref.package-key fired %d times for the query with packageDigest, %d after one without; want 1 and 1", n, m)
			}
		})
	unknown := resPath(f, "cs") + "?space=prod&group=" + q(f.Ref.APIVersion) + "&kind=" + f.Ref.Kind +
		"&definitionVersion=9.9.9&schemaDigest=" + q(f.Ref.SchemaDigest)
	broken(t, sim, "formref.loose",
		func() { c.do("GET", unknown, nil, nil).refused("form_unknown", 404) },
		func() { c.do("GET", unknown, nil, nil).refused("resource_not_found", 404) })
	oneSegment := strings.Replace(resPath(f, "cs"), f.Ref.APIVersion, strings.Replace(f.Ref.APIVersion, "/", "%2F", 1), 1) + exactQuery(f, "prod")
	broken(t, sim, "path.decode-group",
		func() { c.do("GET", oneSegment, nil, nil).refused("resource_not_found", 404) },
		func() { c.do("GET", oneSegment, nil, nil).status(200) })
	reason := func() string {
		conds := c.read(f, "cs", "prod").status(200).json()["status"].(map[string]any)["conditions"].([]any)
		return conds[0].(map[string]any)["reason"].(string)
	}
	broken(t, sim, "status.invent-reason", func() {
		if reason() == "InventedByHostsim" {
			t.Fatalf("the Ready reason is invented")
		}
	}, func() {
		if reason() != "InventedByHostsim" {
			t.Fatalf("status.invent-reason kept the reason %s", reason())
		}
	})
	var v1, v2 *catalog.Form
	for _, k := range cat.Forms() {
		if kind, ok := cat.Kind(k.Ref.APIVersion, k.Ref.Kind); ok && len(kind.Versions) > 1 && len(k.Relations) == 0 && len(k.Fixtures) > 0 {
			v1, v2 = kind.Versions[0], kind.Versions[1]
			break
		}
	}
	if v1 == nil {
		t.Fatalf("the catalog holds no kind with two versions")
	}
	c.create(v1, "vv", "prod", fixture(t, v1)).status(201)
	broken(t, sim, "formref.any-version",
		func() { c.read(v2, "vv", "prod").refused("resource_not_found", 404) },
		func() { c.read(v2, "vv", "prod").status(200) })
}

// The validate, prepare, header, capability, import and delete faults.
func TestMutationRuleFaults(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ConformanceProbes: true})
	c := newClient(t, sim.URL, "sim-primary")
	spec := fixture(t, f)
	c.create(f, "mr", "prod", spec).status(201)
	valid := func() any {
		return c.do("POST", api+"/resources/validate", nil, body(f, "mr", "prod", spec, nil)).status(200).json()["valid"]
	}
	broken(t, sim, "validate.invert", func() {
		if valid() != true {
			t.Fatalf("a fixture is not valid")
		}
	}, func() {
		if valid() != false {
			t.Fatalf("validate.invert answered valid true")
		}
	})
	prepare := func() *reply { return c.do("POST", api+"/resources/prepare", nil, body(f, "mr", "prod", spec, nil)) }
	broken(t, sim, "prepare.no-fence",
		func() { prepare().refused("invalid_argument", 400) },
		func() { prepare().status(200) })
	// A prepareDigest minted for one name, spent on another.
	n := 0
	substitute := func() *reply {
		n++
		name := "sub" + string(rune('a'+n))
		pd := c.prepare(f, "elsewhere", "prod", spec, 0)
		return c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
			body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
	}
	broken(t, sim, "prepare.unbound",
		func() { substitute().refused("invalid_argument", 400) },
		func() { substitute().status(201) })
	unkeyed := func() *reply {
		n++
		name := "unk" + string(rune('a'+n))
		pd := c.prepare(f, name, "prod", spec, 0)
		return c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*"},
			body(f, name, "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
	}
	broken(t, sim, "headers.lenient",
		func() { unkeyed().refused("invalid_argument", 400) },
		func() { unkeyed().status(201) })
	// A spec-identical apply to a revision-role resource.
	rev := pickForm(t, cat, "revision-role Form without relations", func(g *catalog.Form) bool {
		return g.Role == "revision" && len(g.Relations) == 0
	})
	rspec := c.artifactSpec(rev, fixture(t, rev)) // a manifest is committed first (docs/protocol.md#artifacts)
	c.create(rev, "rv", "prod", rspec).status(201)
	broken(t, sim, "capability.ignore",
		func() { c.update(rev, "rv", "prod", rspec, 1).refused("invalid_argument", 400) },
		func() { c.update(rev, "rv", "prod", rspec, 1).status(200) })
	importAs := func(name, nativeID string, s map[string]any) *reply {
		return c.do("POST", resPath(f, name)+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
			body(f, name, "prod", s, map[string]any{"nativeId": nativeID}))
	}
	importAs("ia", "native-1", spec).status(201)
	broken(t, sim, "import.no-claim",
		func() { importAs("ib", "native-1", spec).refused("import_conflict", 409) },
		func() { importAs("ic", "native-1", spec).status(201) })
	bad := map[string]any{}
	for k, v := range spec {
		bad[k] = v
	}
	bad["takokitUnexpected"] = true
	broken(t, sim, "import.unchecked",
		func() { importAs("id", "native-2", bad).refused("invalid_argument", 400) },
		func() { importAs("ie", "native-3", bad).status(201) })
	// A host-side status change moves the revision to 2 at generation 1.
	c.create(f, "dr", "prod", spec).status(201)
	c.do("POST", resPath(f, "dr")+"/observe"+exactQuery(f, "prod"), map[string]string{"Idempotency-Key": newKey(),
		"Takoform-Expected-Generation": "1", "Takoform-Conformance-Probe": "touch-status"}, nil).status(200)
	arm(t, sim, "delete.revision-fenced,resource=dr")
	c.del(f, "dr", "prod", 1).refused("generation_conflict", 412)
	disarm(t, sim)
	c.del(f, "dr", "prod", 1).status(204)
}

// prepare.no-materialize echoes the spec without its defaulted members.
func TestPrepareNoMaterializeFault(t *testing.T) {
	cat := testCatalog(t)
	f := pickForm(t, cat, "Form with a defaulted field", func(f *catalog.Form) bool {
		for _, fl := range f.Fields {
			if fl.Default != nil {
				return len(f.Relations) == 0
			}
		}
		return false
	})
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat})
	c := newClient(t, sim.URL, "sim-primary")
	echo := func() map[string]any {
		r := c.do("POST", api+"/resources/prepare", nil, body(f, "pm", "prod", f.Materialize(fixture(t, f)), nil)).status(200)
		return r.json()["resource"].(map[string]any)["spec"].(map[string]any)
	}
	full := echo()
	broken(t, sim, "prepare.no-materialize", func() {
		if n := len(echo()); n != len(full) {
			t.Fatalf("prepare echoed %d members, then %d", len(full), n)
		}
	}, func() {
		// it leaves out only what the defaults supply: materialized again,
		// the bare spec is the whole one
		bare := echo()
		if len(bare) >= len(full) || !reflect.DeepEqual(f.Materialize(bare), full) {
			t.Fatalf("prepare.no-materialize echoed %v; the materialized spec is %v", bare, full)
		}
	})
}
