package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/takokit/takokit/catalog/wire"
)

// Every rule of a Form's desiredSchema root and top-level properties
// (docs/catalog-rules.md#loader-rules), one broken at a time: the whole list of
// problems is that rule's line, and what a rule allows loads.
func TestDesiredSchemaRules(t *testing.T) {
	store := func(ptr, msg string, args ...any) string {
		return problemLine(storeD, ptr, msg, args...)
	}
	lines := func(l ...string) []string { return l }
	desired := func(c *tcat) obj { return at(c.form("Store", "0.1.0").def, "desiredSchema") }
	// withProp gives Store one immutable property (so it still derives no update)
	withProp := func(name string, node any) func(c *tcat) {
		return func(c *tcat) {
			desired(c)["properties"] = obj{name: node}
			c.form("Store", "0.1.0").def["immutableFields"] = []any{"/" + name}
		}
	}
	// metaschema is the schema compiler's line for what the Draft 2020-12 metaschema refuses at ptr
	metaschema := func(ptr, why string) string {
		return store("/desiredSchema", `schema does not compile under JSON Schema Draft 2020-12: "%s#/desiredSchema#" is not valid against metaschema: jsonschema validation failed with 'https://json-schema.org/draft/2020-12/schema#' - at '': 'allOf' failed - at '%s': %s`, storeD, ptr, why)
	}
	str := obj{"type": "string", "description": "A string."}
	const shape = "desired property shape is not one the catalog model supports"
	checkProblems(t, []problemCase{
		{"desiredSchema not an object", func(c *tcat) { c.form("Store", "0.1.0").def["desiredSchema"] = []any{} },
			lines(store("/desiredSchema", "desiredSchema must be a JSON Schema object"))},
		{"a root keyword outside the closed object", func(c *tcat) { desired(c)["allOf"] = []any{obj{}} },
			lines(store("/desiredSchema/allOf", `%s: keyword "allOf" is not allowed at the desiredSchema root`, shape))},
		{"$defs at the root", func(c *tcat) { desired(c)["$defs"] = obj{"name": obj{"type": "string"}} }, nil},
		{"a root without a type", func(c *tcat) { delete(desired(c), "type") },
			lines(store("/desiredSchema/type", `desiredSchema must have "type": "object"`))},
		{"an open root", func(c *tcat) { desired(c)["additionalProperties"] = true },
			lines(store("/desiredSchema", `desiredSchema is open; the desired root is closed, so set "additionalProperties": false`))},
		{"a root without properties", func(c *tcat) { delete(desired(c), "properties") },
			lines(store("/desiredSchema/properties", `desiredSchema must have "properties" (possibly {})`))},
		{"required that is not a list", func(c *tcat) { desired(c)["required"] = "size" }, lines(metaschema("/required", "got string, want array"))},
		{"required listing a number", func(c *tcat) { desired(c)["required"] = []any{1} }, lines(metaschema("/required/0", "got number, want string"))},
		{"required that names no property", func(c *tcat) { withProp("size", str)(c); desired(c)["required"] = []any{"size", "colour"} },
			lines(store("/desiredSchema/required/1", `"required" names "colour", which is not a declared property`))},
		{"a property name outside the grammar", withProp("Size", str),
			lines(store("/desiredSchema/properties/Size", `property name "Size" must match ^[a-z][a-zA-Z0-9]{0,63}$`),
				store("/immutableFields/0", `"/Size" names no top-level desired property`))},
		{"a property named name", withProp("name", str),
			lines(store("/desiredSchema/properties/name", `property "name" is not allowed: resource identity lives in metadata`),
				store("/immutableFields/0", `"/name" names no top-level desired property`))},
		{"a property named space", withProp("space", str),
			lines(store("/desiredSchema/properties/space", `property "space" is not allowed: resource identity lives in metadata`),
				store("/immutableFields/0", `"/space" names no top-level desired property`))},
		{"a property of a refused shape named in immutableFields", withProp("size", obj{"type": "null", "description": "Nothing."}),
			lines(store("/desiredSchema/properties/size", `%s: use one of the shapes string, string-enum, integer, boolean, string-set, string-list, json-map, object, reference, binding-list or object-list (a single "type", no composition keywords)`, shape))},
		{"a property that is no schema object", withProp("size", true),
			lines(store("/desiredSchema/properties/size", "%s: a property is a schema object", shape),
				store("/immutableFields/0", `"/size" names no top-level desired property`))},
	})
}

// A default sits only on a top-level optional desired property and validates
// against that property's own schema; observedSchema carries none
// (docs/catalog-rules.md#loader-rules).
func TestDefaultRules(t *testing.T) {
	gadget := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(gadget1, ptr, msg, args...)}
	}
	store := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(storeD, ptr, msg, args...)}
	}
	props := func(c *tcat) obj { return propsOf(c, "Gadget", "0.1.0") }
	observed := func(ready obj) func(c *tcat) {
		return func(c *tcat) {
			c.form("Store", "0.1.0").def["observedSchema"] = obj{"$schema": draft, "type": "object", "properties": obj{"ready": ready}}
		}
	}
	checkProblems(t, []problemCase{
		{"a default below the top level", func(c *tcat) { at(props(c), "items/items/properties/weight")["default"] = 5 },
			gadget("/desiredSchema/properties/items/items/properties/weight/default", `"default" is allowed only on a top-level optional desired property; remove it here`)},
		{"a default on a required property, past its bound", func(c *tcat) {
			at(c.form("Gadget", "0.1.0").def, "desiredSchema")["required"] = []any{"holder", "size"}
			at(props(c), "size")["default"] = 11
		},
			gadget("/desiredSchema/properties/size/default", `required property "size" declares a default; a default belongs only on an optional property, so drop it or make the property optional`)},
		{"a default past its property's bound", func(c *tcat) { at(props(c), "size")["default"] = 11 },
			gadget("/desiredSchema/properties/size/default", `default does not validate against the property's own schema: at "": maximum: got 11, want 10`)},
		{"a default whose member breaks the property", func(c *tcat) { at(props(c), "labels")["default"] = obj{"team": 1} },
			gadget("/desiredSchema/properties/labels/default", `default does not validate against the property's own schema: at /team: got number, want string`)},
		{"a default beside a pattern that does not compile", func(c *tcat) {
			at(props(c), "labels/additionalProperties")["pattern"] = "^(a$"
			at(props(c), "size")["default"] = 11
		}, gadget("/desiredSchema/properties/labels/additionalProperties/pattern", "pattern does not compile with Go regexp (RE2): error parsing regexp: missing closing ): `^(a$`; rewrite it without ECMA-only constructs such as lookaround or backreferences")},
		{"a default at the root", func(c *tcat) { at(c.form("Gadget", "0.1.0").def, "desiredSchema")["default"] = obj{} },
			[]string{gadget("/desiredSchema/default", `desired property shape is not one the catalog model supports: keyword "default" is not allowed at the desiredSchema root`)[0],
				gadget("/desiredSchema/default", `"default" is allowed only on a top-level optional desired property; remove it here`)[0]}},
		{"a default in $defs", func(c *tcat) {
			at(c.form("Gadget", "0.1.0").def, "desiredSchema")["$defs"] = obj{"size": obj{"type": "integer", "default": 1}}
		},
			gadget("/desiredSchema/$defs/size/default", `"default" is allowed only on a top-level optional desired property; remove it here`)},
		{"a property named with a slash, with a default", func(c *tcat) {
			props(c)["si/ze"] = obj{"type": "integer", "description": "Size.", "default": 1}
		}, gadget("/desiredSchema/properties/si~1ze", `property name "si/ze" must match ^[a-z][a-zA-Z0-9]{0,63}$`)},
		{"a default in observedSchema", observed(obj{"type": "boolean", "default": false}),
			store("/observedSchema/properties/ready/default", `"default" is not allowed in observedSchema; defaults belong only on top-level optional desired properties`)},
		{"an observedSchema pattern that does not compile", observed(obj{"type": "string", "pattern": "^(a$"}),
			store("/observedSchema/properties/ready/pattern", "pattern does not compile with Go regexp (RE2): error parsing regexp: missing closing ): `^(a$`; rewrite it without ECMA-only constructs such as lookaround or backreferences")},
	})
}

// A Form's relations are its reference nodes, in property order, each with its
// target and contract: hostsim resolves pins and the provider plans references
// from them.
func TestRelationsAreDerivedInFull(t *testing.T) {
	cat := loadBase(t)
	relations := func(kind string) []Relation {
		k, _ := cat.Kind(tGroup, kind)
		return k.Versions[0].Relations
	}
	// the sealed catalog names each contract by its digest
	i, _ := cat.Interface("example.store", "1.0.0")
	b, _ := cat.Binding("holder.store", "1.0.0")
	h, _ := cat.Kind(tGroup, "Holder")
	iface := &wire.InterfaceRef{APIVersion: wire.InterfaceAPIVersion, Name: "example.store", Version: "1.0.0", SchemaDigest: i.Ref.SchemaDigest}
	holderRef := wire.FormRef{APIVersion: tGroup, Kind: "Holder", DefinitionVersion: "0.1.0", SchemaDigest: h.Versions[0].Ref.SchemaDigest}
	for _, c := range []struct {
		kind string
		want []Relation
	}{
		{"Gadget", []Relation{
			{Pointer: "/holder", TargetAPIVersion: tGroup, TargetKind: "Holder", TargetFormRefs: []wire.FormRef{holderRef}},
			{Pointer: "/items/*/target", TargetAPIVersion: tGroup, TargetKind: "Store", RequiredInterface: iface},
		}},
		{"Holder", []Relation{
			{Pointer: "/store", TargetAPIVersion: tGroup, TargetKind: "Store", RequiredInterface: iface},
			{Pointer: "/storeBindings/*/resource", TargetAPIVersion: tGroup, TargetKind: "Store", RequiredInterface: iface,
				Binding: &wire.BindingRef{APIVersion: wire.BindingAPIVersion, Name: "holder.store", Version: "1.0.0", SchemaDigest: b.Ref.SchemaDigest}},
		}},
		{"Store", nil},
	} {
		if d := cmp.Diff(c.want, relations(c.kind)); d != "" {
			t.Errorf("%s relations (-want +got):\n%s", c.kind, d)
		}
	}
}

// LoadPrechecked trusts a root a checking Load accepted: it does not compile a
// desired schema to check defaults, which only Load refuses
// (docs/catalog-rules.md#load-modes).
func TestPrecheckedLoadDoesNotCheckDefaults(t *testing.T) {
	c := baseCatalog()
	at(propsOf(c, "Gadget", "0.1.0"), "size")["default"] = 11
	fsys := mapFS(c.seal(t))
	if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), "default does not validate") {
		t.Fatalf("Load answered %v, want the default refused", err)
	}
	if _, err := LoadPrechecked(fsys); err != nil {
		t.Errorf("LoadPrechecked answered %v, want it to trust the root", err)
	}
}
