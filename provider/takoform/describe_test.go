package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestEveryAttributeHasAMarkdownDescription walks the schema OpenTofu receives: every
// attribute of the provider and of every resource type, nested members included
// (conditions, bundle modules, object-list and binding-list items), is described in
// Markdown.
func TestEveryAttributeHasAMarkdownDescription(t *testing.T) {
	t.Parallel()
	resp := schemaResp(t)
	var walk func(where string, attrs []*tfprotov6.SchemaAttribute)
	walk = func(where string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			at := where + a.Name
			if a.Description == "" || a.DescriptionKind != tfprotov6.StringKindMarkdown {
				t.Errorf("%s: description %q of kind %v, want a Markdown description", at, a.Description, a.DescriptionKind)
			}
			if a.NestedType != nil {
				walk(at+"[*].", a.NestedType.Attributes)
			}
		}
	}
	walk("provider.", resp.Provider.Block.Attributes)
	for typeName, s := range resp.ResourceSchemas {
		if s.Block.Description == "" || s.Block.DescriptionKind != tfprotov6.StringKindMarkdown {
			t.Errorf("%s has no Markdown description", typeName)
		}
		walk(typeName+".", s.Block.Attributes)
	}
}
