package takoform

import (
	"fmt"
	"strings"
)

// resourceMarkdown is a resource type's MarkdownDescription: the one-paragraph summary
// (resourceDescription, also the plain Description), then two sections only the catalog
// knows — the definition versions this provider carries for the kind and, when it declares
// any, its typed outputs. The language server shows it on hover; the documentation page
// (the resource template of tfplugindocs, see docs/decisions.md, "Provider docs by tfplugindocs") puts the summary under the title and the sections after the
// example. Paragraphs are separated by one blank line and tables hold none, so the template
// can split the summary off at the first blank line (docs/provider-design.md#documentation).
func resourceMarkdown(m *kindModel) string {
	var b strings.Builder
	b.WriteString(resourceDescription(m))
	b.WriteString("\n\n## Definition versions\n\n| definition version | schema digest | lifecycle |\n|---|---|---|\n")
	for _, f := range m.kind.Versions {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", f.Ref.DefinitionVersion, f.Ref.SchemaDigest, cell(strings.Join(f.Capabilities, ", ")))
	}
	fmt.Fprintf(&b, "\nNew resources are created under `%s` unless `form_definition_version` names another carried version.",
		m.newest.Ref.DefinitionVersion)
	if len(m.outputs) == 0 {
		return b.String()
	}
	b.WriteString("\n\n## Outputs\n\nTyped outputs the host reports; each is plain Computed and is null only while a create " +
		"the host accepted has not finished. `outputs_json` still holds the whole document.\n\n")
	b.WriteString("| attribute | type | definition versions | description |\n|---|---|---|---|\n")
	for i, o := range m.outputs {
		var vs []string
		for _, f := range m.kind.Versions {
			if _, ok := f.Output(o.Wire); ok {
				vs = append(vs, f.Ref.DefinitionVersion)
			}
		}
		if i > 0 {
			b.WriteString("\n")
		}
		desc := outputAttr(o).GetDescription()
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |", o.Attr, outputTypeText(o.Type), strings.Join(vs, ", "), cell(desc))
	}
	return b.String()
}

// outputTypeText names an output's attribute type as the schema section of a page does.
func outputTypeText(t string) string {
	switch t {
	case "integer":
		return "Number"
	case "boolean":
		return "Boolean"
	}
	return "String"
}

// cell is text made safe for one markdown table cell: one line, no bare pipe.
func cell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}
