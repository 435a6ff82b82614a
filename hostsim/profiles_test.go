package hostsim_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// fullDoc is docs/guides/partial-hosts.md's `full` document, description omitted.
const fullDoc = `{"name": "full",
 "supportedEnums": {"WorkerVersion": {"handlers": ["fetch", "scheduled", "queue"]}},
 "limits": {"WorkerVersion": {"maximumBundleBytes": 10485760}, "WorkerBundle": {"maximumBundleBytes": 10485760, "maximumBundleFiles": 4096},
            "StaticAssetBundle": {"maximumBundleBytes": 10485760, "maximumBundleFiles": 16384},
            "SQLiteMigrationSet": {"maximumBundleBytes": 10485760, "maximumBundleFiles": 16384}},
 "endpoints": {"assign": true, "domain": "endpoints.sim.takokit.test"},
 "async": {"kinds": [], "completeAfterPolls": 2}, "support": "served", "faults": []}`

// merged is what each built-in merges into full (docs/guides/partial-hosts.md table).
var merged = map[string]string{
	"full":               `{}`,
	"kv-only":            `{"forms": {"exclude": ["ObjectBucket", "SQLiteDatabase", "AtLeastOnceQueue", "QueueConsumer"]}, "interfaces": {"exclude": ["edge.objects@1.0.0", "edge.sql@1.0.0", "edge.queue@1.0.0"]}, "bindings": {"exclude": ["module-worker.object-bucket@1.0.0", "module-worker.sqlite@1.0.0", "module-worker.queue-producer@1.0.0"]}}`,
	"no-endpoints":       `{"endpoints": {"assign": false}}`,
	"no-secrets":         `{"limits": {"WorkerVersion": {"maximumRequiredSensitiveVars": 0}}}`,
	"tight-limits":       `{"supportedEnums": {"WorkerVersion": {"handlers": ["fetch", "scheduled"]}}, "supportedRanges": {"AtLeastOnceQueue": {"messageRetentionSeconds": {"minimum": 60, "maximum": 86400}}}, "limits": {"WorkerVersion": {"maximumHandlers": 1, "maximumRequiredSensitiveVars": 2, "maximumBundleBytes": 1048576}, "WorkerBundle": {"maximumBundleBytes": 1048576, "maximumBundleFiles": 16}, "StaticAssetBundle": {"maximumBundleBytes": 1048576, "maximumBundleFiles": 16}, "SQLiteMigrationSet": {"maximumBundleBytes": 1048576, "maximumBundleFiles": 16}, "WorkerDeployment": {"maximumVersions": 2}}}`,
	"async":              `{"async": {"kinds": ["AtLeastOnceQueue", "WorkerEndpoint"], "completeAfterPolls": 2}}`,
	"silent-support":     `{"support": "silent"}`,
	"unreadable-support": `{"support": "unavailable"}`,
}

func mergeMaps(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		am, aok := out[k].(map[string]any)
		bm, bok := v.(map[string]any)
		if aok && bok {
			out[k] = mergeMaps(am, bm)
		} else {
			out[k] = v
		}
	}
	return out
}

func TestBuiltinProfilesAreExactlyTheSpecifiedDocuments(t *testing.T) {
	var full map[string]any
	if err := json.Unmarshal([]byte(fullDoc), &full); err != nil {
		t.Fatal(err)
	}
	for name, add := range merged {
		var extra map[string]any
		if err := json.Unmarshal([]byte(add), &extra); err != nil {
			t.Fatal(err)
		}
		want := mergeMaps(full, extra)
		want["name"] = name
		p, err := hostsim.LoadProfile(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := map[string]any{}
		b := p.JSON()
		_ = json.Unmarshal(b, &got)
		if got["description"] == "" || got["description"] == nil {
			t.Errorf("%s has no description", name)
		}
		delete(got, "description")
		if _, has := got["extends"]; has {
			t.Errorf("%s: the merged document carries extends", name)
		}
		if !equalJSON(got, want) {
			t.Errorf("%s merged document:\n got %s\nwant %s", name, marshalT(got), marshalT(want))
		}
	}
}

func marshalT(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestProfileFilesExtendAndReplaceArrays(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	os.WriteFile(path, []byte(`{"name": "mine", "extends": "kv-only", "forms": {"exclude": ["EdgeKVNamespace"]}}`), 0o644)
	p, err := hostsim.LoadProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := marshalT(p.Doc["forms"])
	if got != `{"exclude":["EdgeKVNamespace"]}` {
		t.Fatalf("a child's forms.exclude must replace the parent's list; got %s", got)
	}
	if p.Doc["interfaces"] == nil {
		t.Fatal("members the child does not name must come from the parent")
	}
	for _, bad := range []string{`{"name": "x", "support": "loud"}`, `{"name": "x", "unknown": 1}`, `{"name": "x", "extends": "nope"}`,
		`{"name": "x", "faults": [{"fault": "nope"}]}`, `{"name": "x", "async": {"completeAfterPolls": 0}}`, `{"name":"x",`} {
		os.WriteFile(path, []byte(bad), 0o644)
		if _, err := hostsim.LoadProfile(path); err == nil {
			t.Errorf("profile %s loaded without error", bad)
		} else if !contains([]byte(err.Error()), path) {
			t.Errorf("error for %s does not name the file: %v", bad, err)
		}
	}
	if _, err := hostsim.LoadProfile("no-such-profile"); err == nil || !contains([]byte(err.Error()), "kv-only") {
		t.Fatalf("an unknown profile name must list the known ones: %v", err)
	}
}

func TestKVOnlyRefusesOnSupportRoutesAndAtApply(t *testing.T) {
	cat := testCatalog(t)
	p, _ := hostsim.LoadProfile("kv-only")
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ProfileDoc: p})
	c := newClient(t, sim.URL, "sim-primary")
	var excluded int
	for _, f := range cat.Forms() {
		path := fmt.Sprintf("%s/support/forms/%s/%s/%s", api, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion)
		gone := false
		for _, k := range p.Forms.Exclude {
			gone = gone || k == f.Ref.Kind
		}
		if !gone {
			c.do("GET", path, nil, nil).status(200)
			continue
		}
		excluded++
		c.do("GET", path, nil, nil).refused("form_unknown", 404)
		c.do("GET", api+"/forms"+exactQuery(f, "prod"), nil, nil).refused("form_unknown", 404)
		if len(f.Fixtures) > 0 {
			c.do("POST", api+"/resources/prepare", nil, body(f, "x", "prod", fixture(t, f), nil)).refused("form_unknown", 404)
			c.do("PUT", resPath(f, "x"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
				body(f, "x", "prod", fixture(t, f), map[string]any{"review": map[string]any{"prepareDigest": "sha256:" + fmt.Sprintf("%064d", 0)}})).refused("form_unknown", 404)
		}
	}
	for _, i := range cat.Interfaces() {
		r := c.do("GET", api+"/support/interfaces/"+i.Ref.Name+"/"+i.Ref.Version, nil, nil)
		gone := false
		for _, x := range p.Interfaces.Exclude {
			gone = gone || x == i.Ref.Name+"@"+i.Ref.Version
		}
		if gone {
			r.refused("resource_not_found", 404)
		} else {
			r.status(200)
		}
	}
	for _, b := range cat.Bindings() {
		r := c.do("GET", api+"/support/bindings/"+b.Ref.Name+"/"+b.Ref.Version, nil, nil)
		gone := false
		for _, x := range p.Bindings.Exclude {
			gone = gone || x == b.Ref.Name+"@"+b.Ref.Version
		}
		if gone {
			r.refused("resource_not_found", 404)
		} else if !contains(r.status(200).body, `"bindingRef"`) {
			t.Fatalf("binding support: %s", r.body)
		}
	}
	if excluded == 0 {
		t.Skip("the catalog has none of kv-only's excluded kinds")
	}
}

func TestSupportModes(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		profile string
		check   func(*testing.T, *client)
	}{
		{"unreadable-support", func(t *testing.T, c *client) {
			r := c.do("GET", api+"/support/forms", nil, nil).refused("backend_unavailable", 503)
			if !contains(r.body, `"retryable":true`) {
				t.Fatalf("backend_unavailable must be retryable: %s", r.body)
			}
		}},
		{"silent-support", func(t *testing.T, c *client) {
			b := c.do("GET", api+"/support/forms", nil, nil).status(200).body
			if contains(b, "supportedEnums") || contains(b, "limits") || !contains(b, "operations") {
				t.Fatalf("silent profiles carry only identity and operations: %s", b)
			}
		}},
		{"full", func(t *testing.T, c *client) {
			b := c.do("GET", api+"/support/forms", nil, nil).status(200).body
			var doc struct{ Profiles []map[string]any }
			_ = json.Unmarshal(b, &doc)
			if len(doc.Profiles) != len(cat.Forms()) {
				t.Fatalf("support/forms lists %d profiles for %d installed Forms", len(doc.Profiles), len(cat.Forms()))
			}
			for _, p := range doc.Profiles {
				for _, word := range []string{"price", "sku", "region", "quota", "billing"} {
					if contains([]byte(marshalT(p)), `"`+word+`"`) {
						t.Fatalf("a support profile carries commercial data %q", word)
					}
				}
			}
		}},
	} {
		t.Run(tc.profile, func(t *testing.T) {
			sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: tc.profile})
			tc.check(t, newClient(t, sim.URL, "sim-primary"))
			if n, _ := sim.Admin.Counters(); n.SupportReads != 1 {
				t.Fatalf("supportReads = %d, want 1", n.SupportReads)
			}
		})
	}
}

func TestNoEndpointsUninstallsFormsWithAssignedOutputs(t *testing.T) {
	cat := testCatalog(t)
	f := withOutputs(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "no-endpoints"})
	c := newClient(t, sim.URL, "sim-primary")
	c.do("GET", fmt.Sprintf("%s/support/forms/%s/%s/%s", api, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion), nil, nil).refused("form_unknown", 404)
	c.do("POST", api+"/resources/validate", nil, body(f, "x", "prod", fixture(t, f), nil)).refused("form_unknown", 404)
}

// A profile that narrows operations, ranges and limits enforces each at apply.
func TestProfileKnobsEnforcedAtApply(t *testing.T) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	fl, _ := intField(f)
	spec := fixture(t, f)
	cur := int64(spec[fl.Wire].(float64))
	doc := fmt.Sprintf(`{"name": "narrow", "extends": "full",
		"operations": {%q: ["create", "read", "delete", "import", "observe"]},
		"supportedRanges": {%q: {%q: {"minimum": %d, "maximum": %d}}}}`, f.Ref.Kind, f.Ref.Kind, fl.Wire, cur, cur)
	path := filepath.Join(t.TempDir(), "narrow.json")
	os.WriteFile(path, []byte(doc), 0o644)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: path})
	c := newClient(t, sim.URL, "sim-primary")
	sup := c.do("GET", fmt.Sprintf("%s/support/forms/%s/%s/%s", api, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion), nil, nil).status(200).json()
	if marshalT(sup["operations"]) != `["create","read","delete","import","observe"]` || sup["supportedRanges"] == nil {
		t.Fatalf("the support profile does not advertise the narrowing: %v", sup)
	}
	c.create(f, "orders", "prod", spec).status(201)
	r := c.update(f, "orders", "prod", changed(t, f, spec), 1).refused("unsupported_capability", 422)
	if !contains(r.body, "update") {
		t.Fatalf("the refusal must name the operation: %s", r.body)
	}
	r = c.create(f, "other", "prod", changed(t, f, spec)).refused("unsupported_capability", 422)
	if !contains(r.body, fl.Wire) {
		t.Fatalf("the refusal must name the field: %s", r.body)
	}
	if n, _ := sim.Admin.Counters(); n.Mutations != 1 {
		t.Fatalf("refused applies mutated: %d mutations", n.Mutations)
	}
}

// An interface the profile does not implement is refused at apply when a
// relation requires it (unsupported_capability), and the support route says so.
func TestExcludedInterfaceEnforcedAtApply(t *testing.T) {
	cat := testCatalog(t)
	f := withOutputs(t, cat)
	var iface string
	for _, rel := range f.Relations {
		if rel.RequiredInterface != nil {
			iface = rel.RequiredInterface.Name + "@" + rel.RequiredInterface.Version
		}
	}
	if iface == "" {
		t.Skip("the Form with outputs requires no interface")
	}
	path := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(path, []byte(`{"name": "no-runtime", "extends": "full", "interfaces": {"exclude": ["`+iface+`"]}}`), 0o644)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: path})
	c := newClient(t, sim.URL, "sim-primary")
	name, version, _ := strings.Cut(iface, "@")
	c.do("GET", api+"/support/interfaces/"+name+"/"+version, nil, nil).refused("resource_not_found", 404)
	_, spec := bareEndpointWorld(t, c, cat, "prod") // no version can bind the excluded interface
	r := c.create(f, "edge", "prod", spec).refused("unsupported_capability", 422)
	if !contains(r.body, name) {
		t.Fatalf("the refusal must name the interface: %s", r.body)
	}
}

// tight-limits publishes its narrowed enums and limits on the FormSupport profiles.
func TestTightLimitsPublishedOnSupportRoutes(t *testing.T) {
	cat := testCatalog(t)
	p, _ := hostsim.LoadProfile("tight-limits")
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, ProfileDoc: p})
	c := newClient(t, sim.URL, "sim-primary")
	seen := 0
	for _, f := range cat.Forms() {
		doc := c.do("GET", fmt.Sprintf("%s/support/forms/%s/%s/%s", api, f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion), nil, nil).status(200).json()
		if e, ok := p.SupportedEnums[f.Ref.Kind]; ok {
			if marshalT(doc["supportedEnums"]) != marshalT(e) {
				t.Fatalf("%s supportedEnums %v, want %v", f.Ref.Kind, doc["supportedEnums"], e)
			}
			seen++
		}
		if l, ok := p.Limits[f.Ref.Kind]; ok {
			if marshalT(doc["limits"]) != marshalT(l) {
				t.Fatalf("%s limits %v, want %v", f.Ref.Kind, doc["limits"], l)
			}
			seen++
		}
		if r, ok := p.SupportedRanges[f.Ref.Kind]; ok && !contains([]byte(marshalT(doc["supportedRanges"])), marshalT(r)[1:10]) {
			t.Fatalf("%s supportedRanges %v", f.Ref.Kind, doc["supportedRanges"])
		}
	}
	if seen == 0 {
		t.Skip("tight-limits names no kind of this catalog")
	}
}
