package catalog

import (
	"fmt"
	"testing"
)

// The rules between documents (docs/catalog-rules.md#loader-rules, #naming),
// each broken once: the whole list of problems, so a rule that also fires where
// it must not (a document a broken one names, a family reported per Form) shows.
func TestCrossDocumentRules(t *testing.T) {
	const other = "other.forms.takokit.dev/v1alpha1"
	store, _ := loadBase(t).Interface("example.store", "1.0.0")
	iface := store.Ref
	gadget2 := "forms/" + tFamily + "/gadget/0.2.0/definition.json"
	line := func(file, ptr, msg string, args ...any) string {
		return problemLine(file, ptr, msg, args...)
	}
	holderRef := fmt.Sprintf("%s Holder@0.1.0 (%s)", tGroup, zeroDig)
	checkProblems(t, []problemCase{
		{"a Form copied into a second family directory", withFiles(func(f map[string][]byte) { copyDir(f, "forms/"+tFamily+"/store", "forms/copy-v1alpha1/store") }), []string{
			// one line for the family directory, at its first Form, not one per Form
			line(gadget1, "/apiVersion", `apiVersion %q is already used by family directory "copy-v1alpha1"; one family directory per Form group`, tGroup),
			line(storeD, `""`, "%s Store@0.1.0 is also defined by forms/copy-v1alpha1/store/definition.json; (apiVersion, kind, definitionVersion) is unique in a catalog", tGroup),
		}},
		{"a family directory holding a second apiVersion", func(c *tcat) { c.form("Holder", "0.1.0").def["apiVersion"] = other }, []string{
			line(gadget1, "/desiredSchema/properties/holder/"+annTargetFormRefs+"/0", "target FormRef %s names no loaded Form; fix the version or digest (reseal the catalog)", holderRef),
			line(gadget2, "/desiredSchema/properties/holder/"+annTargetFormRefs+"/0", "target FormRef %s names no loaded Form; fix the version or digest (reseal the catalog)", holderRef),
			// Store, after Holder, is of the directory's first apiVersion: no line
			line(holderD, "/apiVersion", `family directory %q already holds Forms of %q; every Form under one family directory has the same apiVersion`, tFamily, tGroup),
		}},
		{"a target FormRef of another kind", func(c *tcat) {
			propsOf(c, "Gadget", "0.1.0")["holder"].(obj)[annTargetFormRefs] = []any{formRefOf("Store", "0.1.0")}
		}, []string{line(gadget1, "/desiredSchema/properties/holder/"+annTargetFormRefs+"/0", "target FormRef names %s Store but the node's consts say %s Holder", tGroup, tGroup)}},
		{"a target FormRef of another apiVersion", func(c *tcat) {
			propsOf(c, "Gadget", "0.1.0")["holder"].(obj)[annTargetFormRefs] = []any{obj{"apiVersion": other, "kind": "Holder", "definitionVersion": "0.1.0", "schemaDigest": zeroDig}}
		}, []string{line(gadget1, "/desiredSchema/properties/holder/"+annTargetFormRefs+"/0", "target FormRef names %s Holder but the node's consts say %s Holder", other, tGroup)}},
		// a broken Form or Interface is reported once, by its own rule: what
		// names it (FormRefs, required interfaces, a binding's targets) adds nothing
		{"a broken Form that FormRefs name", func(c *tcat) { c.form("Holder", "0.1.0").def["lifecycleCapabilities"] = []any{"create"} }, []string{
			line(holderD, "/lifecycleCapabilities", "lifecycleCapabilities must be exactly [create read delete import observe] because the role is revision; got [create]"),
		}},
		{"a broken Form that a required interface and a binding name", func(c *tcat) { c.form("Store", "0.1.0").def["lifecycleCapabilities"] = []any{"create"} }, []string{
			line(storeD, "/lifecycleCapabilities", "lifecycleCapabilities must be exactly [create read delete import observe] because no top-level desired property is mutable; got [create]"),
		}},
		{"a broken Interface that required interfaces and a binding name", func(c *tcat) { c.iface["kind"] = "Interface" }, []string{
			line(ifaceD, "/kind", `kind must be "InterfaceDefinition"`),
		}},
		{"a broken Binding that a Form's acceptedBindings and binding list name", func(c *tcat) { c.binding["kind"] = "Binding" }, []string{
			line(bindingD, "/kind", `kind must be "BindingDefinition"`),
		}},
		{"a binding target of another apiVersion", func(c *tcat) {
			c.binding["allowedTargetForms"] = []any{obj{"apiVersion": other, "kind": "Store"}}
		}, []string{
			line(bindingD, "/allowedTargetForms/0", "%s Store is not a loaded Form kind", other),
			line(holderD, "/desiredSchema/properties/storeBindings/items/properties/resource", `binding "holder.store" does not allow target %s Store; use one of its allowedTargetForms`, tGroup),
		}},
		{"a binding target that provides no targetInterface", func(c *tcat) {
			c.binding["allowedTargetForms"] = []any{obj{"apiVersion": tGroup, "kind": "Store"}, obj{"apiVersion": tGroup, "kind": "Holder"}}
		}, []string{line(bindingD, "/allowedTargetForms/1", "no loaded version of %s Holder provides the targetInterface %s", tGroup, iface)}},
		{"two versions' properties of one attribute", func(c *tcat) {
			propsOf(c, "Gadget", "0.1.0")["maxTTL"] = obj{"type": "string", "description": "x"}
			propsOf(c, "Gadget", "0.2.0")["maxTtl"] = obj{"type": "string", "description": "x"}
		}, []string{line(gadget2, "/desiredSchema/properties/maxTtl", `property "maxTtl" and property "maxTTL" of another version both become attribute "max_ttl"; rename one`)}},
		{"a member of another kind in another version", func(c *tcat) {
			at(propsOf(c, "Gadget", "0.2.0"), "items/items/properties")["weight"] = obj{"type": "string", "description": "A weight, as text."}
		}, []string{line(gadget2, "/desiredSchema/properties/items", `property "items" has member "weight" of kind string here but integer in another version; a changed field type needs a new kind or a new resource type`)}},
		{"a member one version adds", func(c *tcat) {
			at(propsOf(c, "Gadget", "0.2.0"), "items/items/properties")["note"] = obj{"type": "string", "description": "A note."}
		}, nil},
	})
}
