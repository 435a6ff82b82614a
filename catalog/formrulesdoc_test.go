package catalog

import (
	"encoding/json"
	"testing"
)

// The rules that span one Form's fields, outputs and contracts
// (docs/catalog-rules.md#loader-rules, #naming): a binding list against its
// Binding, and attribute names, each broken once with its whole list of problems.
func TestFormSpanningRules(t *testing.T) {
	iface, _ := loadBase(t).Interface("example.store", "1.0.0") // the sealed refs carry its digest
	lines := func(l ...string) []string { return l }
	holderProps := func(c *tcat) obj { return propsOf(c, "Holder", "0.1.0") }
	gadgetProps := func(c *tcat) obj { return propsOf(c, "Gadget", "0.1.0") }
	outputs := func(c *tcat) obj { return at(outputsOf(c), "properties") }
	const bl = "/desiredSchema/properties/storeBindings"
	checkProblems(t, []problemCase{
		{"two lists of one Binding", func(c *tcat) {
			// the second list is judged only as a second list: its own name pattern would be refused too
			var second obj
			raw, _ := json.Marshal(holderProps(c)["storeBindings"])
			_ = json.Unmarshal(raw, &second)
			at(second, "items/properties/name")["pattern"] = "^[a-z]+$"
			holderProps(c)["toreBindings"] = second
			c.form("Holder", "0.1.0").def["immutableFields"] = []any{"/note", "/store", "/storeBindings", "/tags", "/toreBindings"}
		}, lines(problemLine(holderD, "/desiredSchema/properties/toreBindings/x-takoform-binding", `binding "holder.store" is already projected by property "storeBindings"; one list per binding`))},
		{"a Binding of another source role", func(c *tcat) { c.binding["sourceRole"] = "identity" },
			lines(problemLine(holderD, bl+"/x-takoform-binding", `binding "holder.store" has sourceRole "identity" but this Form's role is "revision"`))},
		{"a reference that carries no required Interface", func(c *tcat) {
			n := at(holderProps(c), "storeBindings/items/properties/resource")
			delete(n, "x-takoform-required-interface")
			n["x-takoform-target-formrefs"] = []any{formRefOf("Store", "0.1.0")}
		}, lines(problemLine(holderD, bl+"/items/properties/resource", `the reference of binding list "storeBindings" must carry x-takoform-required-interface equal to binding "holder.store"'s targetInterface %s`, iface.Ref))},
		{"two properties of one attribute", func(c *tcat) {
			gadgetProps(c)["portID"] = obj{"type": "integer", "description": "A port."}
			gadgetProps(c)["portId"] = obj{"type": "integer", "description": "A port."}
		}, lines(problemLine(gadget1, "/desiredSchema/properties/portId", `desired properties "portID" and "portId" both become attribute "port_id"; rename one`))},
		{"two object-list members of one attribute", func(c *tcat) {
			at(gadgetProps(c), "items/items/properties")["tagID"] = obj{"type": "string"}
			at(gadgetProps(c), "items/items/properties")["tagId"] = obj{"type": "string"}
		}, lines(problemLine(gadget1, "/desiredSchema/properties/items", `members "tagID" and "tagId" of "items" both become attribute "tag_id"; rename one`))},
		{"an output of a reserved attribute", func(c *tcat) {
			outputs(c)["id"] = obj{"type": "string"}
			outputsOf(c)["required"] = []any{"address", "id", "port"}
			f := c.form("Gadget", "0.1.0")
			f.fixtures["fixtures/outputs.json"] = obj{"address": "here", "port": 443, "id": "x"}
		}, lines(problemLine(gadget1, "/outputSchema/properties/id", `output "id" becomes attribute "id", which is reserved (held for the provider); rename the output`))},
		{"an output and a property of one attribute", func(c *tcat) {
			gadgetProps(c)["portID"] = obj{"type": "integer", "description": "A port."}
			outputs(c)["portId"] = obj{"type": "integer"}
			outputsOf(c)["required"] = []any{"address", "port", "portId"}
		}, lines(problemLine(gadget1, "/outputSchema/properties/portId", `output "portId" and desired property "portID" both become attribute "port_id"; rename one`))},
	})
}
