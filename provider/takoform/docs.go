package takoform

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
)

// GenerateDocs renders the generated documentation of every resource type:
// docs/resources/<type without takoform_>.md and
// examples/resources/<type>/resource.tf, keyed by slash path from the repository root.
func GenerateDocs(cat *model.Catalog) (map[string][]byte, error) {
	p, err := newProvider("docs", cat)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, kt := range p.kinds {
		ex := exampleHCL(kt.model)
		out["examples/resources/"+kt.model.typeName+"/resource.tf"] = []byte(ex)
		short := strings.TrimPrefix(kt.model.typeName, TypeName+"_")
		out["docs/resources/"+short+".md"] = []byte(markdown(kt, ex))
	}
	return out, nil
}

func typeText(t attr.Type) string {
	switch x := t.(type) {
	case types.ListType:
		return "List of " + typeText(x.ElemType)
	case types.SetType:
		return "Set of " + typeText(x.ElemType)
	case types.ObjectType:
		return "Object"
	}
	switch t {
	case types.StringType:
		return "String"
	case types.Int64Type:
		return "Number"
	case types.BoolType:
		return "Bool"
	}
	return t.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func markdown(kt *kindType, example string) string {
	m := kt.model
	var b strings.Builder
	desc := oneLine(kt.schema.Description) // the MarkdownDescription goes on to the version and output tables
	fmt.Fprintf(&b, "---\npage_title: %q\ndescription: |-\n  %s\n---\n\n", m.typeName+" Resource - takoform", desc)
	fmt.Fprintf(&b, "# %s (Resource)\n\n%s\n\n", m.typeName, desc)
	b.WriteString("<!-- Generated from the Form catalog by `go tool mage docs`; do not edit. -->\n\n")
	b.WriteString("## Example Usage\n\n```terraform\n" + example + "```\n\n")
	b.WriteString("## Definition versions\n\n| definition version | schema digest | lifecycle |\n|---|---|---|\n")
	for _, f := range m.kind.Versions {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", f.Ref.DefinitionVersion, f.Ref.SchemaDigest, strings.Join(f.Capabilities, ", "))
	}
	fmt.Fprintf(&b, "\nNew resources are created under `%s` unless `form_definition_version` names another carried version.\n\n", m.newest.Ref.DefinitionVersion)
	groups := map[string][]string{}
	outputs := map[string]bool{}
	for _, o := range m.outputs {
		outputs[o.Attr] = true
	}
	names := make([]string, 0, len(kt.schema.Attributes))
	for n := range kt.schema.Attributes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := kt.schema.Attributes[n]
		if outputs[n] {
			continue
		}
		g := "Read-Only"
		switch {
		case a.IsRequired():
			g = "Required"
		case a.IsOptional():
			g = "Optional"
		}
		groups[g] = append(groups[g], attrLine(n, a))
	}
	b.WriteString("## Schema\n")
	for _, g := range []string{"Required", "Optional", "Read-Only"} {
		if len(groups[g]) == 0 {
			continue
		}
		b.WriteString("\n### " + g + "\n\n" + strings.Join(groups[g], "\n") + "\n")
	}
	if len(m.outputs) > 0 {
		b.WriteString("\n## Outputs\n\nTyped outputs the host reports; each is plain Computed and is null only while a create the host accepted has not finished. `outputs_json` still holds the whole document.\n\n")
		b.WriteString("| attribute | type | definition versions | description |\n|---|---|---|---|\n")
		for _, o := range m.outputs {
			var vs []string
			for _, f := range m.kind.Versions {
				if _, ok := f.Output(o.Wire); ok {
					vs = append(vs, f.Ref.DefinitionVersion)
				}
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", o.Attr, typeText(kt.schema.Attributes[o.Attr].GetType()), strings.Join(vs, ", "), oneLine(o.Description))
		}
	}
	b.WriteString("\n## Import\n\nImport by `NAME` (the provider's space), `SPACE/NAME`, or a JSON object naming the exact Form:\n\n")
	fmt.Fprintf(&b, "```shell\ntofu import %s.example prod/example-%s\n```\n", m.typeName, m.kind.Slug)
	return b.String()
}

func attrLine(name string, a schema.Attribute) string {
	desc := oneLine(a.GetMarkdownDescription())
	line := fmt.Sprintf("- `%s` (%s)", name, typeText(a.GetType()))
	if desc != "" {
		line += " " + desc
	}
	if n, ok := a.(schema.ListNestedAttribute); ok {
		members := make([]string, 0, len(n.NestedObject.Attributes))
		for mn := range n.NestedObject.Attributes {
			members = append(members, mn)
		}
		sort.Strings(members)
		line += " Each element:"
		for _, mn := range members {
			ma := n.NestedObject.Attributes[mn]
			mode := "Optional"
			if ma.IsRequired() {
				mode = "Required"
			} else if ma.IsComputed() && !ma.IsOptional() {
				mode = "Read-Only"
			}
			line += fmt.Sprintf("\n  - `%s` (%s, %s) %s", mn, typeText(ma.GetType()), mode, oneLine(ma.GetMarkdownDescription()))
		}
	}
	return line
}
