package takoform

import (
	"strings"
	"testing"
)

// TestResourceMarkdownCarriesVersionsAndOutputs: the MarkdownDescription the docs template
// splits is the plain summary, one blank line, then a row per carried definition version
// and, exactly when the kind declares outputs, a row per output naming the versions that
// declare it.
func TestResourceMarkdownCarriesVersionsAndOutputs(t *testing.T) {
	t.Parallel()
	withOutputs := 0
	for _, kt := range testProvider(t).kinds {
		m, md := kt.model, kt.schema.MarkdownDescription
		summary, rest, ok := strings.Cut(md, "\n\n")
		if !ok || summary != kt.schema.Description || summary != resourceDescription(m) || strings.Contains(summary, "\n") {
			t.Errorf("%s: the first paragraph %q is not the one-line plain description %q", m.typeName, summary, kt.schema.Description)
		}
		for _, f := range m.kind.Versions {
			if !strings.Contains(rest, "| `"+f.Ref.DefinitionVersion+"` | `"+f.Ref.SchemaDigest+"` |") {
				t.Errorf("%s: no row for definition version %s", m.typeName, f.Ref.DefinitionVersion)
			}
		}
		if !strings.Contains(rest, "created under `"+m.newest.Ref.DefinitionVersion+"`") {
			t.Errorf("%s: does not say new resources use %s", m.typeName, m.newest.Ref.DefinitionVersion)
		}
		if has := strings.Contains(rest, "\n## Outputs\n"); has != (len(m.outputs) > 0) {
			t.Errorf("%s: Outputs section present=%v, declared outputs=%d", m.typeName, has, len(m.outputs))
		}
		if len(m.outputs) > 0 {
			withOutputs++
		}
		for _, o := range m.outputs {
			var vs []string
			for _, f := range m.kind.Versions {
				if _, ok := f.Output(o.Wire); ok {
					vs = append(vs, f.Ref.DefinitionVersion)
				}
			}
			row := "| `" + o.Attr + "` | " + outputTypeText(o.Type) + " | " + strings.Join(vs, ", ") + " |"
			if !strings.Contains(rest, row) {
				t.Errorf("%s: no output row %q", m.typeName, row)
			}
		}
	}
	if withOutputs == 0 {
		t.Fatal("no kind of the test catalog declares outputs; the Outputs section went untested")
	}
}

func TestCellKeepsATableRowWhole(t *testing.T) {
	t.Parallel()
	if got := cell("a |b\n  c"); got != `a \|b c` {
		t.Errorf("cell = %q", got)
	}
}
