package catalog

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// publishedSchemas compiles the published schemas read at run time from the
// reference directory (no copy is embedded in the project), keyed by file stem.
func publishedSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	dir := filepath.Join(referenceDir(t), "schemas")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("reference schemas directory %s is absent: %v", dir, err)
	}
	c := jsonschema.NewCompiler()
	ids := map[string]string{}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		id, _ := doc.(map[string]any)["$id"].(string)
		if id == "" {
			id = "https://reference.invalid/" + e.Name()
		}
		if err := c.AddResource(id, doc); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		ids[strings.TrimSuffix(e.Name(), ".schema.json")] = id
	}
	out := map[string]*jsonschema.Schema{}
	for _, name := range []string{"form-definition-v1alpha3", "form-ref-v1alpha3", "package-index-v1alpha4",
		"interface-definition-v1alpha1", "interface-ref-v1alpha1", "binding-definition-v1alpha1", "binding-ref-v1alpha1"} {
		s, err := c.Compile(ids[name])
		if err != nil {
			t.Fatalf("compiling published schema %s: %v", name, err)
		}
		out[name] = s
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
			check(p, "form-definition-v1alpha3", doc)
		case top == "forms" && path.Base(p) == indexFile:
			check(p, "package-index-v1alpha4", doc)
		case top == "interfaces" && path.Base(p) == definitionFile:
			check(p, "interface-definition-v1alpha1", doc)
		case top == "bindings" && path.Base(p) == definitionFile:
			check(p, "binding-definition-v1alpha1", doc)
		case p == transitionsFile:
			for i, tr := range doc.(map[string]any)["transitions"].([]any) {
				for _, end := range []string{"from", "to"} {
					check(fmt.Sprintf("%s#/transitions/%d/%s", p, i, end), "form-ref-v1alpha3", tr.(map[string]any)[end])
				}
			}
		}
		return nil
	})
	return n
}

func TestProjectDocumentsValidateAgainstPublishedSchemas(t *testing.T) {
	schemas := publishedSchemas(t)
	if n := validateCatalogDocs(t, EmbeddedFS(), schemas); n < 12*2+6+5 {
		t.Errorf("checked only %d embedded documents; the catalog must hold the project's family", n)
	}
	// The validator must be able to fail: a definition with an unknown member is refused.
	raw, err := fs.ReadFile(os.DirFS(goodDir), "forms/"+tFamily+"/store/definition.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	doc.(map[string]any)["unexpectedMember"] = true
	if schemas["form-definition-v1alpha3"].Validate(doc) == nil {
		t.Errorf("the published form-definition schema accepted an unknown member; the check is vacuous")
	}
}

func TestTestCatalogValidatesAgainstPublishedSchemas(t *testing.T) {
	schemas := publishedSchemas(t)
	validateCatalogDocs(t, os.DirFS(goodDir), schemas)
}
