package takoform

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog/model"
)

// GenerateExamples renders the example files of every resource type, keyed by slash path
// from the repository root: examples/resources/<type>/resource.tf (from the newest
// version's canonical fixture, docs_example.go), import.sh (the import command in both ID
// forms) and import-by-string-id.tf (the same import as an import block). tfplugindocs puts
// them on each page (docs/provider-design.md#documentation).
func GenerateExamples(cat *model.Catalog) (map[string][]byte, error) {
	p, err := newProvider("docs", cat)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, kt := range p.kinds {
		m := kt.model
		dir := "examples/resources/" + m.typeName + "/"
		out[dir+"resource.tf"] = []byte(exampleHCL(m))
		out[dir+"import.sh"] = []byte(importShell(m))
		out[dir+"import-by-string-id.tf"] = []byte(importBlock(m))
	}
	return out, nil
}

// exampleImportID is the SPACE/NAME of the example resource in space prod.
func exampleImportID(m *kindModel) string { return "prod/example-" + m.kind.Slug }

func importShell(m *kindModel) string {
	ref := m.newest.Ref
	exact, _ := json.Marshal(importID{Space: &[]string{"prod"}[0], Name: "example-" + m.kind.Slug,
		APIVersion: &ref.APIVersion, Kind: &ref.Kind, DefinitionVersion: &ref.DefinitionVersion, SchemaDigest: &ref.SchemaDigest})
	addr := m.typeName + ".example"
	return fmt.Sprintf("# NAME in the provider's space, or SPACE/NAME:\ntofu import %s %s\n\n"+
		"# or a JSON object naming the exact Form (all four Form members, or none):\ntofu import %s '%s'\n",
		addr, exampleImportID(m), addr, strings.ReplaceAll(string(exact), "'", `'\''`))
}

func importBlock(m *kindModel) string {
	return hclBlock{header: "import", lines: []hclLine{
		{key: "to", value: []string{m.typeName + ".example"}},
		{key: "id", value: []string{hclString(exampleImportID(m))}},
	}}.render("")
}
