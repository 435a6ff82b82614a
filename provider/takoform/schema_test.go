package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

func TestEveryKindGetsOneResourceType(t *testing.T) {
	t.Parallel()
	resp := schemaResp(t)
	cat := testCatalog(t)
	if got, want := len(resp.ResourceSchemas), len(cat.Kinds()); got != want {
		t.Fatalf("resource types = %d, kinds = %d", got, want)
	}
	for _, k := range cat.Kinds() {
		s, ok := resp.ResourceSchemas[k.TypeName]
		if !ok {
			t.Errorf("kind %s has no resource type %s", k.Kind, k.TypeName)
			continue
		}
		if s.Version != SchemaVersion {
			t.Errorf("%s: schema version %d, want %d", k.TypeName, s.Version, SchemaVersion)
		}
	}
	if len(resp.DataSourceSchemas) != 0 {
		t.Errorf("data sources = %d, want none", len(resp.DataSourceSchemas))
	}
}

// TestEverySchemaAttributePassesOpenTofusFlagRules holds every attribute of every
// resource type, members of nested attributes included, to the rules OpenTofu checks
// when it loads a provider's schemas (configschema's InternalValidate; a schema that
// breaks one is "a bug in the provider" and no resource type of it can be planned): an
// attribute is Required, or Optional, or Computed, never both Required and Optional nor
// Required and Computed, and has a type or nested attributes, not both. The in-process
// tests talk to the framework, which checks none of this.
func TestEverySchemaAttributePassesOpenTofusFlagRules(t *testing.T) {
	t.Parallel()
	resp := schemaResp(t)
	checked := map[string]int{}
	var walk func(typeName, path string, attrs []*tfprotov6.SchemaAttribute)
	walk = func(typeName, path string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			at := path + a.Name
			switch {
			case a.Required && a.Optional:
				t.Errorf("%s: %s is both required and optional", typeName, at)
			case a.Required && a.Computed:
				t.Errorf("%s: %s is both required and computed", typeName, at)
			case !a.Required && !a.Optional && !a.Computed:
				t.Errorf("%s: %s is neither required, optional nor computed", typeName, at)
			}
			if (a.Type == nil) == (a.NestedType == nil) {
				t.Errorf("%s: %s has both a type and nested attributes, or neither", typeName, at)
			}
			if a.NestedType != nil {
				walk(typeName, at+".", a.NestedType.Attributes)
				continue
			}
			checked[a.Type.String()]++
		}
	}
	for typeName, s := range resp.ResourceSchemas {
		walk(typeName, "", s.Block.Attributes)
		for _, b := range s.Block.BlockTypes {
			walk(typeName, b.TypeName+".", b.Block.Attributes)
		}
	}
	walk("provider", "", resp.Provider.Block.Attributes)
	// the catalog's kinds of member the rule was broken for once: a boolean member of an
	// object (desired.go memberAttr)
	if checked["tftypes.Bool"] == 0 {
		t.Errorf("no boolean attribute was checked (%v): the catalog under test has none, so the rule is not held for them", checked)
	}
}

// TestBindingListItemAttributes: a binding list's item is the binding's name and the bound
// resource's name, both required, each described for what it is and checked (the name by
// the item schema's own rules, the target as a resource name), whatever the catalog's
// members say of themselves.
func TestBindingListItemAttributes(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	for _, bl := range bindingLists(t, p) {
		attrs := nestedObject(bl).Attributes
		for name, want := range map[string]string{"name": "Binding name seen by the runtime.", bindingTargetAttr: "Name of the bound resource."} {
			a, ok := attrs[name].(schema.StringAttribute)
			if !ok || !a.Required || a.Description != want || len(a.Validators) != 1 {
				t.Errorf("binding list %s: item attribute %s is %#v; want a required string described %q with one validator", bl.Wire, name, attrs[name], want)
			}
		}
		if len(attrs) != 2 {
			t.Errorf("binding list %s: the item has %d attributes, want name and %s", bl.Wire, len(attrs), bindingTargetAttr)
		}
	}
}
