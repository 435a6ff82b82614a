package takoform

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// relist rewrites the digests every candidate-set.json listing under dir/forms carries
// (formRef.schemaDigest and packageDigest) from the package indexes beside it, as
// `go tool mage catalog:seal` does: a test that edits a package of a copied catalog
// keeps its listing in step, or the loader refuses the listing.
func relist(t *testing.T, dir string) {
	t.Helper()
	type sealed struct{ schema, pkg string }
	byRef := map[string]sealed{}
	var listings []string
	err := filepath.WalkDir(filepath.Join(dir, "forms"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case "candidate-set.json":
			listings = append(listings, p)
		case "package-index.json":
			raw, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var idx map[string]any
			readJSON(t, p, &idx)
			pd, err := wire.Digest(raw)
			if err != nil {
				return err
			}
			ref := idx["formRef"].(map[string]any)
			byRef[refKey(ref)] = sealed{schema: ref["schemaDigest"].(string), pkg: pd}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range listings {
		var doc map[string]any
		readJSON(t, p, &doc)
		for _, e := range doc["forms"].([]any) {
			entry := e.(map[string]any)
			ref := entry["formRef"].(map[string]any)
			s, ok := byRef[refKey(ref)]
			if !ok {
				t.Fatalf("%s lists %s, which no package of %s holds", p, refKey(ref), dir)
			}
			ref["schemaDigest"], entry["packageDigest"] = s.schema, s.pkg
		}
		if err := os.WriteFile(p, indentJSON(t, doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func refKey(ref map[string]any) string {
	return ref["apiVersion"].(string) + " " + ref["kind"].(string) + "@" + ref["definitionVersion"].(string)
}
