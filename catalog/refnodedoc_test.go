package catalog

import (
	"testing"
)

// Every rule of a reference node and its contract annotation
// (docs/catalog-rules.md#loader-rules), one broken at a time: the whole list of
// problems is that rule's line, and what a rule allows loads.
func TestReferenceNodeRules(t *testing.T) {
	const p = "/desiredSchema/properties/holder"
	line := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(gadget1, ptr, msg, args...)}
	}
	node := func(c *tcat) obj { return at(propsOf(c, "Gadget", "0.1.0"), "holder") }
	member := func(c *tcat, name string) obj { return at(node(c), "properties/"+name) }
	const exactConst = `must be exactly {"type": "string", "const": "…"} (a description may be added)`
	const exactName = `reference name must be exactly {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z][a-z0-9-]{0,62}$"}`
	// a node carrying a contract annotation over apiVersion and kind is judged as a
	// reference node: a const or the name it lacks is that member's one line. One
	// without kind is no reference node: a closed object, on which the contract
	// annotation is out of place (and each member that kept its const is a string
	// member with a keyword too many)
	notReference := func(kept ...string) []string {
		out := line(p, "contract annotation on a node that is not a reference node; put x-takoform-target-formrefs or x-takoform-required-interface only on a reference node")
		const shape = "desired property shape is not one the catalog model supports"
		for _, m := range kept {
			out = append(out, problemLine(gadget1, p+"/properties/"+m+"/const", `%s: keyword "const" is not part of the string shape`, shape))
		}
		return append(out, problemLine(gadget1, p+"/x-takoform-target-formrefs", `%s: keyword "x-takoform-target-formrefs" is not part of the object shape`, shape))
	}
	checkProblems(t, []problemCase{
		{"a title", func(c *tcat) { node(c)["title"] = "Holder" }, nil},
		{"a keyword of no reference node", func(c *tcat) { node(c)["minProperties"] = 3 },
			line(p+"/minProperties", `keyword "minProperties" is not allowed on a reference node; a reference node carries only type, additionalProperties, properties, required, description and one contract annotation`)},
		{"a type other than object", func(c *tcat) { node(c)["type"] = "string" }, line(p+"/type", `a reference node has "type": "object"`)},
		{"an open node", func(c *tcat) { delete(node(c), "additionalProperties") },
			line(p+"/additionalProperties", `a reference node is closed: set "additionalProperties": false`)},
		{"name not required", func(c *tcat) { node(c)["required"] = []any{"apiVersion", "kind"} },
			line(p+"/required", "a reference node requires exactly apiVersion, kind and name")},
		{"a fourth property", func(c *tcat) { at(node(c), "properties")["uid"] = obj{"type": "string"} },
			line(p+"/properties/uid", `a reference node has exactly the properties apiVersion, kind and name; remove "uid"`)},
		{"an apiVersion const that is no Form group", func(c *tcat) { member(c, "apiVersion")["const"] = "Example" },
			line(p+"/properties/apiVersion/const", `"Example" is not a Form group`)},
		{"a kind const that is no Form kind", func(c *tcat) { member(c, "kind")["const"] = "holder" },
			line(p+"/properties/kind/const", `"holder" is not a Form kind`)},
		{"an empty apiVersion const", func(c *tcat) { member(c, "apiVersion")["const"] = "" },
			line(p+"/properties/apiVersion/const", `"" is not a Form group`)},
		{"an empty kind const", func(c *tcat) { member(c, "kind")["const"] = "" },
			line(p+"/properties/kind/const", `"" is not a Form kind`)},
		{"a kind without its const", func(c *tcat) { delete(member(c, "kind"), "const") }, line(p+"/properties/kind", exactConst)},
		{"an apiVersion without its const", func(c *tcat) { delete(member(c, "apiVersion"), "const") }, line(p+"/properties/apiVersion", exactConst)},
		{"neither const", func(c *tcat) {
			delete(member(c, "kind"), "const")
			delete(member(c, "apiVersion"), "const")
		}, append(line(p+"/properties/apiVersion", exactConst), line(p+"/properties/kind", exactConst)...)},
		{"no name member", func(c *tcat) {
			delete(at(node(c), "properties"), "name")
			node(c)["required"] = []any{"apiVersion", "kind"}
		}, append(line(p+"/properties/name", `a reference node has the member name: add {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z][a-z0-9-]{0,62}$"}`),
			line(p+"/required", "a reference node requires exactly apiVersion, kind and name")...)},
		{"no name member, still required", func(c *tcat) { delete(at(node(c), "properties"), "name") },
			line(p+"/properties/name", `a reference node has the member name: add {"type": "string", "minLength": 1, "maxLength": 63, "pattern": "^[a-z][a-z0-9-]{0,62}$"}`)},
		{"apiVersion, kind and name without consts or annotation: a closed object", func(c *tcat) {
			propsOf(c, "Gadget", "0.1.0")["origin"] = obj{"type": "object", "additionalProperties": false, "description": "Where it came from.",
				"properties": obj{"apiVersion": obj{"type": "string"}, "kind": obj{"type": "string"}, "name": obj{"type": "string"}}}
		}, nil},
		{"no kind member", func(c *tcat) {
			delete(at(node(c), "properties"), "kind")
			node(c)["required"] = []any{"apiVersion", "name"}
		}, notReference("apiVersion")},
		{"no apiVersion member", func(c *tcat) {
			delete(at(node(c), "properties"), "apiVersion")
			node(c)["required"] = []any{"kind", "name"}
		}, notReference("kind")},
		{"an apiVersion of another type", func(c *tcat) { member(c, "apiVersion")["type"] = "number" }, line(p+"/properties/apiVersion", exactConst)},
		{"a const that is no string", func(c *tcat) { member(c, "kind")["const"] = 5 }, line(p+"/properties/kind", exactConst)},
		{"an apiVersion const that is no string", func(c *tcat) { member(c, "apiVersion")["const"] = 5 }, line(p+"/properties/apiVersion", exactConst)},
		{"a const with a description", func(c *tcat) { member(c, "kind")["description"] = "The kind." }, nil},
		{"a const with a title", func(c *tcat) { member(c, "kind")["title"] = "Kind" }, line(p+"/properties/kind", exactConst)},
		{"a const with a description and a title", func(c *tcat) {
			member(c, "kind")["description"] = "The kind."
			member(c, "kind")["title"] = "Kind"
		}, line(p+"/properties/kind", exactConst)},
		{"a name of another type", func(c *tcat) { member(c, "name")["type"] = "integer" }, line(p+"/properties/name", exactName)},
		{"a name of another pattern", func(c *tcat) { member(c, "name")["pattern"] = "^[a-z]+$" }, line(p+"/properties/name", exactName)},
		{"a name of another minLength", func(c *tcat) { member(c, "name")["minLength"] = 2 }, line(p+"/properties/name", exactName)},
		{"a name of another maxLength", func(c *tcat) { member(c, "name")["maxLength"] = 64 }, line(p+"/properties/name", exactName)},
		{"a name with a format", func(c *tcat) { member(c, "name")["format"] = "hostname" }, line(p+"/properties/name", exactName)},
		{"a name with a title and a description", func(c *tcat) {
			member(c, "name")["title"] = "Name"
			member(c, "name")["description"] = "The holder's name."
		}, nil},
		{"both contract annotations", func(c *tcat) { node(c)["x-takoform-required-interface"] = ifaceRef() },
			line(p, "reference node carries both x-takoform-target-formrefs and x-takoform-required-interface; keep exactly one contract annotation")},
		{"no contract annotation", func(c *tcat) { delete(node(c), "x-takoform-target-formrefs") },
			line(p, "reference node carries no contract annotation; add exactly one of x-takoform-target-formrefs or x-takoform-required-interface")},
		{"no target FormRef", func(c *tcat) { node(c)["x-takoform-target-formrefs"] = []any{} },
			line(p+"/x-takoform-target-formrefs", "x-takoform-target-formrefs must list at least one FormRef")},
		{"a target FormRef that is no object", func(c *tcat) { node(c)["x-takoform-target-formrefs"] = []any{"Holder"} },
			line(p+"/x-takoform-target-formrefs/0", "found a JSON string where an object is required")},
		{"a required Interface that is no object", func(c *tcat) {
			delete(node(c), "x-takoform-target-formrefs")
			node(c)["x-takoform-required-interface"] = "example.store"
		}, line(p+"/x-takoform-required-interface", "found a JSON string where an object is required")},
	})
}

// A reference node, a contract annotation or a binding annotation anywhere the
// field classifier did not place one is refused, each for what it is.
func TestStrayReferencesAndAnnotations(t *testing.T) {
	line := func(ptr, msg string, args ...any) []string {
		return []string{problemLine(gadget1, ptr, msg, args...)}
	}
	// labels is a json-map: its value schema is no place for a reference
	values := func(v obj) func(c *tcat) {
		return func(c *tcat) { at(propsOf(c, "Gadget", "0.1.0"), "labels")["additionalProperties"] = v }
	}
	const p = "/desiredSchema/properties/labels/additionalProperties"
	checkProblems(t, []problemCase{
		{"a reference node in a json-map", values(refNode("Store", obj{"x-takoform-required-interface": ifaceRef()})),
			line(p, "reference node is not allowed here; a reference may be a top-level field, a member of a closed object property, the reference member of a binding-list item or a member of an object-list item")},
		{"a reference node with both annotations in a json-map", values(refNode("Store", obj{"x-takoform-required-interface": ifaceRef(), "x-takoform-target-formrefs": []any{formRefOf("Store", "0.1.0")}})),
			line(p, "reference node carries both x-takoform-target-formrefs and x-takoform-required-interface; keep exactly one contract annotation")},
		{"a reference node without annotations in a json-map", values(refNode("Store", nil)),
			line(p, "reference node carries no contract annotation; add exactly one of x-takoform-target-formrefs or x-takoform-required-interface")},
		{"target FormRefs on a string", values(obj{"type": "string", "x-takoform-target-formrefs": []any{formRefOf("Store", "0.1.0")}}),
			line(p, "contract annotation on a node that is not a reference node; put x-takoform-target-formrefs or x-takoform-required-interface only on a reference node")},
		{"a required Interface on a string", values(obj{"type": "string", "x-takoform-required-interface": ifaceRef()}),
			line(p, "contract annotation on a node that is not a reference node; put x-takoform-target-formrefs or x-takoform-required-interface only on a reference node")},
		{"a reference node without its kind const in a json-map", values(obj{"type": "object", "additionalProperties": false, "required": []any{"apiVersion", "kind", "name"},
			"properties":                    obj{"apiVersion": obj{"type": "string", "const": tGroup}, "kind": obj{"type": "string"}, "name": obj{"type": "string"}},
			"x-takoform-required-interface": ifaceRef()}),
			line(p, "reference node is not allowed here; a reference may be a top-level field, a member of a closed object property, the reference member of a binding-list item or a member of an object-list item")},
		{"a binding annotation in a json-map", values(obj{"type": "string", "x-takoform-binding": "holder.store"}),
			line(p+"/x-takoform-binding", "x-takoform-binding is allowed only on a top-level binding-list property")},
	})
}
