package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Every desired property shape the catalog model supports, and each way of
// leaving one (docs/catalog-rules.md#documents): the whole list of problems is
// that shape's line, and what a shape allows loads.
func TestPropertyShapeRules(t *testing.T) {
	const shape = "desired property shape is not one the catalog model supports"
	store := func(ptr, why string, args ...any) string {
		return problemLine(storeD, ptr, shape+": "+why, args...)
	}
	lines := func(l ...string) []string { return l }
	// withProp gives Store one immutable property (so it still derives no update)
	withProp := func(node obj) func(c *tcat) {
		return func(c *tcat) {
			node["description"] = "A property."
			at(c.form("Store", "0.1.0").def, "desiredSchema")["properties"] = obj{"thing": node}
			c.form("Store", "0.1.0").def["immutableFields"] = []any{"/thing"}
		}
	}
	const p = "/desiredSchema/properties/thing"
	member := obj{"type": "string"}
	object := func(props obj, extra obj) obj {
		n := obj{"type": "object", "additionalProperties": false, "properties": props}
		for k, v := range extra {
			n[k] = v
		}
		return n
	}
	items := func(item obj) obj { return obj{"type": "array", "items": item} }
	checkProblems(t, []problemCase{
		{"a string with a title", withProp(obj{"type": "string", "title": "Thing"}), nil},
		{"a string with a format", withProp(obj{"type": "string", "format": "email"}),
			lines(store(p+"/format", `keyword "format" is not part of the string shape`))},
		{"a string enum of no strings", withProp(obj{"type": "string", "enum": []any{}}),
			lines(store(p+"/enum", "a string enum lists one or more strings"))},
		{"a string enum of a number", withProp(obj{"type": "string", "enum": []any{"a", 1}}),
			lines(store(p+"/enum", "a string enum lists one or more strings"))},
		{"an integer with a pattern", withProp(obj{"type": "integer", "pattern": "^1$"}),
			lines(store(p+"/pattern", `keyword "pattern" is not part of the integer shape`))},
		{"an integer minimum that is no integer", withProp(obj{"type": "integer", "minimum": 0.5}),
			lines(store(p+"/minimum", `"minimum" of an integer field must be an integer within ±(2^53−1)`))},
		{"an integer maximum past 2^53−1", withProp(obj{"type": "integer", "maximum": float64(1 << 60)}),
			lines(store(p+"/maximum", `"maximum" of an integer field must be an integer within ±(2^53−1)`))},
		{"a boolean with an enum", withProp(obj{"type": "boolean", "enum": []any{true}}),
			lines(store(p+"/enum", `keyword "enum" is not part of the boolean shape`))},
		{"a json-map of any values", withProp(obj{"type": "object", "additionalProperties": true}), nil},
		{"a json-map without additionalProperties", withProp(obj{"type": "object"}),
			lines(store(p, `an object property is a reference node, a closed object ("properties" and "additionalProperties": false) or a json-map ("additionalProperties" a schema and no "properties")`))},
		{"a json-map closed to every key", withProp(obj{"type": "object", "additionalProperties": false}),
			lines(store(p, `an object property is a reference node, a closed object ("properties" and "additionalProperties": false) or a json-map ("additionalProperties" a schema and no "properties")`))},
		{"an object neither closed nor a json-map, with a pattern", withProp(obj{"type": "object", "pattern": "^a$"}),
			lines(store(p, `an object property is a reference node, a closed object ("properties" and "additionalProperties": false) or a json-map ("additionalProperties" a schema and no "properties")`))},
		{"a json-map with a pattern", withProp(obj{"type": "object", "additionalProperties": true, "pattern": "^a$"}),
			lines(store(p+"/pattern", `keyword "pattern" is not part of the json-map shape`))},
		{"an object", withProp(object(obj{"a": member, "b": obj{"type": "integer"}}, obj{"required": []any{"a"}})), nil},
		{"an open object", withProp(obj{"type": "object", "properties": obj{"a": member}}),
			lines(store(p+"/additionalProperties", `an object property is closed: set "additionalProperties": false`))},
		{"an object without members", withProp(object(obj{}, nil)),
			lines(store(p+"/properties", `an object property declares one or more members under "properties"`))},
		{"an object whose required names no member", withProp(object(obj{"a": member}, obj{"required": []any{"a", "b"}})),
			lines(store(p+"/required/1", `"required" names "b", which is not a declared member`))},
		{"an object member named outside the grammar", withProp(object(obj{"A": member}, nil)),
			lines(store(p+"/properties/A", "a member is a schema object named by ^[a-z][a-zA-Z0-9]{0,63}$"))},
		{"an object member that is no schema", withProp(object(obj{"a": true}, nil)),
			lines(store(p+"/properties/a", "a member is a schema object named by ^[a-z][a-zA-Z0-9]{0,63}$"))},
		{"an object member that is an object", withProp(object(obj{"a": obj{"type": "object"}}, nil)),
			lines(store(p+"/properties/a", "a member of an object or object-list item is a string, string-enum, integer, boolean or reference"))},
		{"an object member that is an array", withProp(object(obj{"a": obj{"type": "array"}}, nil)),
			lines(store(p+"/properties/a", "a member of an object or object-list item is a string, string-enum, integer, boolean or reference"))},
		{"an array without items", withProp(obj{"type": "array"}),
			lines(store(p+"/items", `an array property needs an "items" schema object`))},
		{"an array of numbers", withProp(items(obj{"type": "number"})),
			lines(store(p+"/items", "array items are a string, a string enum or a closed object"))},
		{"a string list with bounds", withProp(obj{"type": "array", "minItems": 1, "maxItems": 3, "items": obj{"type": "string", "title": "Item", "enum": []any{"a"}}}), nil},
		{"a string list item enum of no strings", withProp(items(obj{"type": "string", "enum": []any{}})),
			lines(store(p+"/items/enum", "a string item enum lists one or more strings"))},
		{"a string list item with a format", withProp(items(obj{"type": "string", "format": "email"})),
			lines(store(p+"/items/format", `keyword "format" is not part of a string item`))},
		{"a string list with a keyword of no array", withProp(obj{"type": "array", "items": member, "pattern": "^a$"}),
			lines(store(p+"/pattern", `keyword "pattern" is not part of the string-set/string-list shape`))},
		{"an object list with a keyword of no array", withProp(obj{"type": "array", "items": object(obj{"a": member}, nil), "pattern": "^a$"}),
			lines(store(p+"/pattern", `keyword "pattern" is not part of the object-list shape`))},
		{"an open object-list item", withProp(items(obj{"type": "object", "properties": obj{"a": member}})),
			lines(store(p+"/items/additionalProperties", `an object-list item is closed: set "additionalProperties": false`))},
		{"an object-list item without members", withProp(items(object(obj{}, nil))),
			lines(store(p+"/items/properties", `an object-list item declares its members under "properties"`))},
		{"an object-list item with a keyword of no item", withProp(items(object(obj{"a": member}, obj{"minProperties": 1}))),
			lines(store(p+"/items/minProperties", `keyword "minProperties" is not part of the object-list item shape`))},
		{"an object-list member named outside the grammar", withProp(items(object(obj{"A": member}, nil))),
			lines(store(p+"/items/properties/A", "a member is a schema object named by ^[a-z][a-zA-Z0-9]{0,63}$"))},
		{"an object-list member that is no schema", withProp(items(object(obj{"a": true}, nil))),
			lines(store(p+"/items/properties/a", "a member is a schema object named by ^[a-z][a-zA-Z0-9]{0,63}$"))},
	})
}

// What each shape derives, member by member: the provider's schema and
// hostsim's checks are built from these Fields.
func TestFieldsAreDerivedInFull(t *testing.T) {
	cat := loadBase(t)
	form := func(kind string) *Form {
		k, _ := cat.Kind(tGroup, kind)
		return k.Versions[0]
	}
	n := func(v int64) *int64 { return &v }
	field := func(kind, name string) Field {
		f, ok := form(kind).Field(name)
		if !ok {
			t.Fatalf("%s has no field %q", kind, name)
		}
		return *f
	}
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		switch p.Last().String() {
		case ".Ref", ".Members", ".Binding":
			return true // references, members and bindings are compared on their own below
		}
		return false
	}, cmp.Ignore())
	for _, c := range []struct {
		kind, name string
		want       Field
	}{
		{"Gadget", "size", Field{Wire: "size", Attr: "size", Pointer: "/size", Description: "Size.", Kind: FieldInteger, Min: n(1), Max: n(10), Default: []byte("5")}},
		{"Gadget", "mode", Field{Wire: "mode", Attr: "mode", Pointer: "/mode", Description: "Mode.", Kind: FieldStringEnum, Enum: []string{"fast", "slow"}, Default: []byte(`"fast"`)}},
		{"Gadget", "labels", Field{Wire: "labels", Attr: "labels_json", Pointer: "/labels", Description: "Labels.", Kind: FieldJSONMap, Default: []byte("{}")}},
		{"Gadget", "items", Field{Wire: "items", Attr: "items", Pointer: "/items", Description: "Items.", Kind: FieldObjectList, MaxItems: n(4)}},
		{"Holder", "note", Field{Wire: "note", Attr: "note", Pointer: "/note", Description: "A note.", Kind: FieldString, MaxLength: n(40), Immutable: true}},
		{"Holder", "tags", Field{Wire: "tags", Attr: "tags", Pointer: "/tags", Description: "Tags.", Kind: FieldStringSet, Unique: true, Pattern: "^[a-z]+$", Default: []byte("[]"), Immutable: true}},
	} {
		if d := cmp.Diff(c.want, field(c.kind, c.name), ignore, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s %s (-want +got):\n%s", c.kind, c.name, d)
		}
	}
	items := field("Gadget", "items").Members
	if len(items) != 2 || items[0].Wire != "target" || items[0].Pointer != "/items/*/target" || items[0].Kind != FieldReference || !items[0].Required ||
		items[1].Wire != "weight" || items[1].Kind != FieldInteger || *items[1].Min != 1 || *items[1].Max != 100 || !items[1].Required {
		t.Errorf("Gadget items' members %+v", items)
	}
	bl := field("Holder", "storeBindings")
	if bl.Kind != FieldBindingList || bl.RefMember != "resource" || len(bl.Members) != 2 || bl.Members[0].Pattern != "^[A-Z][A-Z0-9_]*$" ||
		bl.Members[1].Attr != "target_name" || !bl.Members[1].Required || *bl.MaxItems != 8 || !bl.Unique {
		t.Errorf("Holder storeBindings %+v", bl)
	}
}

// A binding list is an array of closed two-member items, a name and one
// reference (docs/catalog-rules.md#documents); each way of breaking that is one
// line, and a broken reference node is not then held against the Binding.
func TestBindingListShapeRules(t *testing.T) {
	const shape = "desired property shape is not one the catalog model supports"
	const p = "/desiredSchema/properties/storeBindings"
	holder := func(ptr, why string, args ...any) []string {
		return []string{problemLine(holderD, ptr, shape+": "+why, args...)}
	}
	list := func(c *tcat) obj { return at(propsOf(c, "Holder", "0.1.0"), "storeBindings") }
	item := func(c *tcat) obj { return at(list(c), "items") }
	members := func(c *tcat) obj { return at(item(c), "properties") }
	// a list whose annotation names no Binding projects none, so the accepted one is unprojected too
	unprojected := problemLine(holderD, "/acceptedBindings/0", `accepted binding "holder.store" is projected by no binding-list property; add a property with x-takoform-binding: "holder.store" or drop the entry`)
	const twoMembers = `a binding-list item is a closed object with exactly two required members: "name" (a string) and one reference member`
	checkProblems(t, []problemCase{
		{"a binding named by an empty string", func(c *tcat) { list(c)["x-takoform-binding"] = "" },
			append([]string{unprojected}, holder(p+"/x-takoform-binding", "x-takoform-binding names a Binding as a string")...)},
		{"a binding named by a number", func(c *tcat) { list(c)["x-takoform-binding"] = 5 },
			append([]string{unprojected}, holder(p+"/x-takoform-binding", "x-takoform-binding names a Binding as a string")...)},
		{"a list keyword of no binding list", func(c *tcat) { list(c)["pattern"] = "^a$" },
			holder(p+"/pattern", `keyword "pattern" is not part of the binding-list shape`)},
		{"an item keyword of no item", func(c *tcat) { item(c)["minProperties"] = 2 },
			holder(p+"/items/minProperties", `keyword "minProperties" is not part of the binding-list item shape`)},
		{"an open item", func(c *tcat) { delete(item(c), "additionalProperties") }, holder(p+"/items", twoMembers)},
		{"a third member", func(c *tcat) { members(c)["note"] = obj{"type": "string"} }, holder(p+"/items", twoMembers)},
		{"a name member and one more, not required as two", func(c *tcat) {
			members(c)["label"] = obj{"type": "string"}
			delete(members(c), "resource")
			item(c)["required"] = []any{"name", "label"}
		}, holder(p+"/items/properties/label", "the second member of a binding-list item must be a reference node")},
		{"no name member", func(c *tcat) {
			members(c)["label"] = members(c)["name"]
			delete(members(c), "name")
			item(c)["required"] = []any{"label", "resource"}
		}, holder(p+"/items", twoMembers)},
		{"a name that is not required", func(c *tcat) { item(c)["required"] = []any{"resource"} }, holder(p+"/items", twoMembers)},
		{"a name that is no string", func(c *tcat) { members(c)["name"] = obj{"type": "integer"} }, holder(p+"/items", twoMembers)},
		{"a second member that is no reference", func(c *tcat) { members(c)["resource"] = obj{"type": "string"} },
			holder(p+"/items/properties/resource", "the second member of a binding-list item must be a reference node")},
		{"a name keyword of no binding name", func(c *tcat) { at(members(c), "name")["enum"] = []any{"DATA"} },
			holder(p+"/items/properties/name/enum", `keyword "enum" is not part of a binding name`)},
		{"a broken reference member, the Form's only reference", func(c *tcat) {
			delete(at(members(c), "resource"), "x-takoform-required-interface")
			delete(propsOf(c, "Holder", "0.1.0"), "store")
			delete(at(c.form("Holder", "0.1.0").def, "desiredSchema"), "required")
			c.form("Holder", "0.1.0").def["immutableFields"] = []any{"/note", "/storeBindings", "/tags"}
		},
			[]string{problemLine(holderD, p+"/items/properties/resource", "reference node carries no contract annotation; add exactly one of x-takoform-target-formrefs or x-takoform-required-interface")}},
		{"a name with a title and bounds", func(c *tcat) {
			at(members(c), "name")["title"] = "Name"
			at(members(c), "name")["maxLength"] = 32
		}, nil},
	})
}
