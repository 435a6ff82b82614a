package catalog

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// publishedSchemas compiles the published schemas of lane (reftest.Schemas), keyed
// by role, so every lane's documents are checked by the same code.
func publishedSchemas(t *testing.T, lane *wire.Lane) map[string]*jsonschema.Schema {
	t.Helper()
	schema := reftest.Schemas(t, lane)
	out := map[string]*jsonschema.Schema{}
	for role, file := range map[string]string{"form-definition": lane.Schemas.FormDefinition, "form-ref": lane.Schemas.FormRef,
		"package-index": "package-index-v1alpha4.schema.json", "interface-definition": "interface-definition-v1alpha1.schema.json",
		"interface-ref": "interface-ref-v1alpha1.schema.json", "binding-definition": "binding-definition-v1alpha1.schema.json",
		"binding-ref": "binding-ref-v1alpha1.schema.json"} {
		out[role] = schema(file)
	}
	return out
}

// validateCatalogDocs validates every definition, package index, contract and
// transition ref of a catalog root against the published schemas; it returns how
// many documents it checked.
func validateCatalogDocs(t *testing.T, fsys fs.FS, schemas map[string]*jsonschema.Schema) int {
	t.Helper()
	n := 0
	check := func(p, schema string, v any) {
		n++
		if err := schemas[schema].Validate(v); err != nil {
			t.Errorf("%s does not validate against the published %s schema: %v", p, schema, err)
		}
	}
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		raw, _ := fs.ReadFile(fsys, p)
		doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		switch top := strings.SplitN(p, "/", 2)[0]; {
		case top == "forms" && path.Base(p) == definitionFile:
			check(p, "form-definition", doc)
		case top == "forms" && path.Base(p) == indexFile:
			check(p, "package-index", doc)
		case top == "interfaces" && path.Base(p) == definitionFile:
			check(p, "interface-definition", doc)
		case top == "bindings" && path.Base(p) == definitionFile:
			check(p, "binding-definition", doc)
		case p == transitionsFile:
			for i, tr := range doc.(map[string]any)["transitions"].([]any) {
				for _, end := range []string{"from", "to"} {
					check(fmt.Sprintf("%s#/transitions/%d/%s", p, i, end), "form-ref", tr.(map[string]any)[end])
				}
			}
		}
		return nil
	})
	return n
}

func TestProjectDocumentsValidateAgainstPublishedSchemas(t *testing.T) {
	for _, lane := range wire.Lanes() {
		schemas := publishedSchemas(t, lane)
		fsys, err := EmbeddedLaneFS(lane)
		if err != nil {
			t.Fatal(err)
		}
		if n := validateCatalogDocs(t, fsys, schemas); n < 12*2+6+5 {
			t.Errorf("checked only %d documents of data/%s; the catalog must hold the project's family", n, lane.Name)
		}
	}
	schemas := publishedSchemas(t, wire.DefaultLane)
	// The validator must be able to fail: a definition with an unknown member is refused.
	raw, err := fs.ReadFile(os.DirFS(goodDir), "forms/"+tFamily+"/store/definition.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	doc.(map[string]any)["unexpectedMember"] = true
	if schemas["form-definition"].Validate(doc) == nil {
		t.Errorf("the published form-definition schema accepted an unknown member; the check is vacuous")
	}
}

func TestTestCatalogValidatesAgainstPublishedSchemas(t *testing.T) {
	schemas := publishedSchemas(t, wire.DefaultLane)
	validateCatalogDocs(t, os.DirFS(goodDir), schemas)
}
