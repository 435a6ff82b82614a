package catalog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// Every rule of a Form Definition's own members (docs/catalog-rules.md#loader-rules),
// one broken at a time: the whole list of problems is that rule's line (a Form
// that fails is not then reported missing by what names it), and what a rule
// allows loads.
func TestFormDefinitionRules(t *testing.T) {
	store, holder, gadget := problemLineIn(storeD), problemLineIn(holderD), problemLineIn(gadget1)
	lines := func(l ...string) []string { return l }
	def := func(c *tcat, kind string) obj { return c.form(kind, "0.1.0").def }
	bindingRef := obj{"apiVersion": wire.BindingAPIVersion, "name": "holder.store", "version": "1.0.0", "schemaDigest": zeroDig}
	// repeated lists n copies of v; twice names every copy after the first
	repeated := func(n int, v any) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	twice := func(line func(string, string, ...any) string, member, name string, n int) []string {
		var ptrs, out []string
		for i := 1; i < n; i++ {
			ptrs = append(ptrs, fmt.Sprintf("/%s/%d", member, i))
		}
		slices.Sort(ptrs) // problems come sorted by file, then pointer as text
		for _, p := range ptrs {
			out = append(out, line(p, "%s lists %s twice", member, name))
		}
		return out
	}
	checkProblems(t, []problemCase{
		{"apiVersion not a Form group", func(c *tcat) { def(c, "Store")["apiVersion"] = "example" },
			lines(store("/apiVersion", `apiVersion "example" is not a Form group (a DNS-like name, /v, a number and an optional alpha/beta number, such as edge.forms.takokit.dev/v1alpha1)`))},
		{"a reserved group", func(c *tcat) { def(c, "Store")["apiVersion"] = "forms.takoform.com/v1alpha2" },
			lines(store("/apiVersion", `apiVersion "forms.takoform.com/v1alpha2" is reserved by Takoform; use your own Form group`))},
		{"a kind outside the grammar", func(c *tcat) { def(c, "Store")["kind"] = "store" },
			lines(store("/kind", `kind "store" must match ^[A-Z][A-Za-z0-9]{0,63}$`))},
		{"a definitionVersion that is no semantic version", func(c *tcat) { def(c, "Store")["definitionVersion"] = "0.1" },
			lines(store("/definitionVersion", `definitionVersion "0.1" is not a semantic version such as 0.1.0`))},
		{"an empty title", func(c *tcat) { def(c, "Store")["title"] = "" },
			lines(store("/title", "title must be 1 to 160 characters"))},
		{"a role outside the list", func(c *tcat) { def(c, "Store")["role"] = "service" },
			lines(store("/role", `role "service" must be one of identity, revision, deployment, attachment, policy`))},
		{"a failed Form the transitions name", func(c *tcat) { c.form("Gadget", "0.1.0").def["role"] = "service" },
			lines(gadget("/role", `role "service" must be one of identity, revision, deployment, attachment, policy`))},
		{"a definition that is not JSON", withFiles(func(files map[string][]byte) { files[storeD] = []byte(`{"kind": `) }),
			lines(store("/kind", "unexpected end of input; the JSON value is incomplete (byte 9)"))},
		{"an Interface provided twice", func(c *tcat) { def(c, "Store")["providedInterfaces"] = repeated(2, ifaceRef()) },
			twice(store, "providedInterfaces", "example.store", 2)},
		{"64 provided Interfaces", func(c *tcat) { def(c, "Store")["providedInterfaces"] = repeated(64, ifaceRef()) },
			twice(store, "providedInterfaces", "example.store", 64)},
		{"65 provided Interfaces", func(c *tcat) { def(c, "Store")["providedInterfaces"] = repeated(65, ifaceRef()) },
			append([]string{store(`""`, "providedInterfaces and acceptedBindings list at most 64 entries each")}, twice(store, "providedInterfaces", "example.store", 65)...)},
		{"a Binding accepted twice", func(c *tcat) { def(c, "Holder")["acceptedBindings"] = repeated(2, bindingRef) },
			twice(holder, "acceptedBindings", "holder.store", 2)},
		{"64 accepted Bindings", func(c *tcat) { def(c, "Holder")["acceptedBindings"] = repeated(64, bindingRef) },
			twice(holder, "acceptedBindings", "holder.store", 64)},
		{"65 accepted Bindings", func(c *tcat) { def(c, "Holder")["acceptedBindings"] = repeated(65, bindingRef) },
			append([]string{holder(`""`, "providedInterfaces and acceptedBindings list at most 64 entries each")}, twice(holder, "acceptedBindings", "holder.store", 65)...)},
	})
}

// The lifecycle capabilities a definition lists are exactly the ones derived from
// its role and immutableFields (docs/catalog-rules.md#loader-rules): each way of
// listing others is its own line, and the line says why the derived list is what
// it is.
func TestLifecycleCapabilityRules(t *testing.T) {
	store, holder, gadget := problemLineIn(storeD), problemLineIn(holderD), problemLineIn(gadget1)
	caps := func(c *tcat, kind, version string, list ...any) {
		c.form(kind, version).def["lifecycleCapabilities"] = list
	}
	const noUpdate = "create read delete import observe"
	checkProblems(t, []problemCase{
		{"an unknown capability", func(c *tcat) { caps(c, "Store", "0.1.0", "create", "read", "delete", "import", "observe", "list") },
			[]string{store("/lifecycleCapabilities", "lifecycleCapabilities must be exactly [%s] because no top-level desired property is mutable; got [%s list]", noUpdate, noUpdate),
				store("/lifecycleCapabilities/5", `unknown lifecycle capability "list"`)}},
		{"a capability listed twice", func(c *tcat) { caps(c, "Store", "0.1.0", "create", "read", "delete", "import", "observe", "read") },
			[]string{store("/lifecycleCapabilities", "lifecycleCapabilities must be exactly [%s] because no top-level desired property is mutable; got [%s read]", noUpdate, noUpdate),
				store("/lifecycleCapabilities/5", `capability "read" is listed twice`)}},
		{"a revision that lists update", func(c *tcat) { caps(c, "Holder", "0.1.0", "create", "read", "update", "delete", "import", "observe") },
			[]string{holder("/lifecycleCapabilities", "lifecycleCapabilities must be exactly [%s] because the role is revision; got [create read update delete import observe]", noUpdate),
				holder("/lifecycleCapabilities/2", `a revision Form may not list "update"; revisions are never updated or refreshed`)}},
		{"a revision with a mutable property is still never updated", func(c *tcat) {
			c.form("Holder", "0.1.0").def["immutableFields"] = []any{"/store", "/storeBindings", "/tags"}
		}, nil},
		{"a mutable property without update", func(c *tcat) { caps(c, "Gadget", "0.1.0", "create", "read", "delete", "import", "observe") },
			[]string{gadget("/lifecycleCapabilities", "lifecycleCapabilities must be exactly [create read update delete import observe] because a top-level desired property is not in immutableFields; got [%s]", noUpdate)}},
		{"every property immutable", func(c *tcat) {
			c.form("Gadget", "0.1.0").def["immutableFields"] = []any{"/holder", "/items", "/labels", "/mode", "/size"}
			caps(c, "Gadget", "0.1.0", "create", "read", "delete", "import", "observe")
		}, nil},
	})
	k, _ := loadBase(t).Kind(tGroup, "Holder")
	if h := k.Versions[0]; strings.Join(h.Capabilities, " ") != noUpdate || h.DeclaresUpdate {
		t.Errorf("Holder capabilities %v (declares update: %v)", h.Capabilities, h.DeclaresUpdate)
	}
}

// immutableFields name top-level desired properties or members of an object
// property by JSON Pointer (docs/catalog-rules.md#loader-rules): each other entry
// is its own line.
func TestImmutableFieldRules(t *testing.T) {
	line := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(gadget1, ptr, msg, args...)}
	}
	immutable := func(list ...any) func(c *tcat) {
		return func(c *tcat) { c.form("Gadget", "0.1.0").def["immutableFields"] = list }
	}
	checkProblems(t, []problemCase{
		{"not a JSON Pointer", immutable("/holder", "size"), line("/immutableFields/1", `"size" is not a JSON Pointer`)},
		{"listed twice", immutable("/holder", "/holder"), line("/immutableFields/1", `"/holder" is listed twice`)},
		{"a nested node of no object property", immutable("/holder", "/labels/team"),
			line("/immutableFields/1", `"/labels/team" names a nested node that is not a member of a closed object property; immutableFields name a top-level desired property or a member of an object property`)},
		{"no property", immutable("/holder", "/colour"), line("/immutableFields/1", `"/colour" names no top-level desired property`)},
		{"an escaped token no property has", immutable("/holder", "/si~1ze"), line("/immutableFields/1", `"/si~1ze" names no top-level desired property`)},
	})
}

// The conformance fixtures a definition declares (docs/catalog-rules.md#loader-rules):
// names, stages, expected failures, package paths and counts, each broken once,
// at and past every bound.
func TestFixtureDeclarationRules(t *testing.T) {
	line := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(gadget1, ptr, msg, args...)}
	}
	pos := func(c *tcat) []any { return c.form("Gadget", "0.1.0").def["conformanceFixtures"].([]any) }
	neg := func(c *tcat) []any { return c.form("Gadget", "0.1.0").def["negativeConformanceFixtures"].([]any) }
	positives := func(n int) func(c *tcat) {
		return func(c *tcat) {
			list := pos(c)
			for i := len(list); i < n; i++ {
				list = append(list, obj{"name": fmt.Sprintf("p%d", i), "desiredPath": "fixtures/desired.json"})
			}
			c.form("Gadget", "0.1.0").def["conformanceFixtures"] = list
		}
	}
	negatives := func(n int) func(c *tcat) {
		return func(c *tcat) {
			list := neg(c)
			for i := len(list); i < n; i++ {
				list = append(list, obj{"name": fmt.Sprintf("n%d", i), "stage": "desired", "inputPath": "fixtures/negative-unexpected-property.json", "expectedFailure": "schema_validation_failed"})
			}
			c.form("Gadget", "0.1.0").def["negativeConformanceFixtures"] = list
		}
	}
	set := func(list func(c *tcat) []any, i int, k string, v any) func(c *tcat) {
		return func(c *tcat) { list(c)[i].(obj)[k] = v }
	}
	const pathRule = "is not a package path (1..240 characters of [A-Za-z0-9._-] segments, no . or ..)"
	long := strings.Repeat("a", 236) + ".json" // 241 characters
	const nameRule = "must match ^[a-z0-9][a-z0-9._-]{0,127}$ and be unique"
	checkProblems(t, []problemCase{
		{"32 positive fixtures", positives(32), nil},
		{"33 positive fixtures", positives(33), line(`""`, "a definition lists at most 32 positive and 32 negative fixtures")},
		{"32 negative fixtures", negatives(32), nil},
		{"33 negative fixtures", negatives(33), line(`""`, "a definition lists at most 32 positive and 32 negative fixtures")},
		{"a positive name outside the grammar", set(pos, 0, "name", "Canonical"), line("/conformanceFixtures/0/name", `fixture name "Canonical" %s`, nameRule)},
		{"a positive name twice", func(c *tcat) { positives(2)(c); pos(c)[1].(obj)["name"] = "canonical" },
			line("/conformanceFixtures/1/name", `fixture name "canonical" %s`, nameRule)},
		{"a negative named as a positive", set(neg, 1, "name", "canonical"), line("/negativeConformanceFixtures/1/name", `fixture name "canonical" %s`, nameRule)},
		{"a negative name twice", set(neg, 1, "name", "reject-unexpected-property"), line("/negativeConformanceFixtures/1/name", `fixture name "reject-unexpected-property" %s`, nameRule)},
		{"a negative name outside the grammar", set(neg, 1, "name", "-port"), line("/negativeConformanceFixtures/1/name", `fixture name "-port" %s`, nameRule)},
		{"a stage outside the list", set(neg, 1, "stage", "plan"), line("/negativeConformanceFixtures/1/stage", `stage "plan" must be one of desired, observed, output`)},
		{"an expected failure outside the grammar", set(neg, 1, "expectedFailure", "No"), line("/negativeConformanceFixtures/1/expectedFailure", `expectedFailure "No" must match ^[a-z][a-z0-9._-]{2,127}$`)},
		{"a desiredPath with a .. segment", set(pos, 0, "desiredPath", "fixtures/../desired.json"), line("/conformanceFixtures/0/desiredPath", `"fixtures/../desired.json" %s`, pathRule)},
		{"an observedPath with a . segment", set(pos, 0, "observedPath", "fixtures/./observed.json"), line("/conformanceFixtures/0/observedPath", `"fixtures/./observed.json" %s`, pathRule)},
		{"an outputPath with a space", set(pos, 0, "outputPath", "fixtures/out puts.json"), line("/conformanceFixtures/0/outputPath", `"fixtures/out puts.json" %s`, pathRule)},
		{"an inputPath of 241 characters", set(neg, 1, "inputPath", long), line("/negativeConformanceFixtures/1/inputPath", `%q %s`, long, pathRule)},
		{"an inputPath that is empty", set(neg, 1, "inputPath", ""), line("/negativeConformanceFixtures/1/inputPath", `"" %s`, pathRule)},
		{"an inputPath of 240 characters", func(c *tcat) {
			p := long[1:]
			neg(c)[1].(obj)["inputPath"] = p
			c.form("Gadget", "0.1.0").fixtures[p] = obj{"address": "here", "port": 0}
		}, nil},
	})
}

// A Form keeps its observed and output schemas as written, and has none it does
// not declare: hostsim validates observations and outputs against them.
func TestFormKeepsTheSchemasItDeclares(t *testing.T) {
	c := baseCatalog()
	observed := obj{"$schema": draft, "type": "object", "properties": obj{"ready": obj{"type": "boolean"}}}
	c.form("Store", "0.1.0").def["observedSchema"] = observed
	cat, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	kind := func(name string) *Form {
		k, _ := cat.Kind(tGroup, name)
		return k.Versions[0]
	}
	var got obj
	if err := json.Unmarshal(kind("Store").ObservedJSON, &got); err != nil || !reflect.DeepEqual(got, observed) {
		t.Errorf("Store's observed schema %s (%v), want %v", kind("Store").ObservedJSON, err, observed)
	}
	if kind("Store").OutputJSON != nil || kind("Gadget").ObservedJSON != nil {
		t.Errorf("schemas not declared: Store's output %s, Gadget's observed %s", kind("Store").OutputJSON, kind("Gadget").ObservedJSON)
	}
	if err := json.Unmarshal(kind("Gadget").OutputJSON, &got); err != nil || got["title"] != "Gadget outputs" {
		t.Errorf("Gadget's output schema %s (%v)", kind("Gadget").OutputJSON, err)
	}
}
