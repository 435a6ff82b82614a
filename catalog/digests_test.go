package catalog

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// checkDigests recomputes, independently of the loader, every digest of a loaded
// catalog from the bytes in fsys, and resolves every exact ref found anywhere.
func checkDigests(t *testing.T, fsys fs.FS, c *Catalog) {
	t.Helper()
	forms := map[wire.FormRef]bool{}
	contracts := map[string]string{}
	for _, i := range c.Interfaces() {
		if d, err := wire.Digest(i.JSON); err != nil || d != i.Ref.SchemaDigest {
			t.Errorf("interface %s: recomputed %s (%v)", i.Ref, d, err)
		}
		contracts[wire.InterfaceAPIVersion+" "+i.Ref.Name+"@"+i.Ref.Version] = i.Ref.SchemaDigest
	}
	for _, b := range c.Bindings() {
		if d, err := wire.Digest(b.JSON); err != nil || d != b.Ref.SchemaDigest {
			t.Errorf("binding %s: recomputed %s (%v)", b.Ref, d, err)
		}
		contracts[wire.BindingAPIVersion+" "+b.Ref.Name+"@"+b.Ref.Version] = b.Ref.SchemaDigest
	}
	indexes := map[wire.FormRef]string{}
	_ = fs.WalkDir(fsys, "forms", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == indexFile {
			raw, _ := fs.ReadFile(fsys, p)
			var idx struct {
				FormRef wire.FormRef `json:"formRef"`
				Files   []struct {
					Path   string `json:"path"`
					Size   int    `json:"size"`
					Digest string `json:"digest"`
				} `json:"files"`
			}
			if err := json.Unmarshal(raw, &idx); err != nil {
				t.Errorf("%s: %v", p, err)
				return nil
			}
			pd, _ := wire.Digest(raw)
			indexes[idx.FormRef] = pd
			for _, f := range idx.Files {
				b, err := fs.ReadFile(fsys, path.Join(path.Dir(p), f.Path))
				if err != nil || len(b) != f.Size || wire.RawDigest(b) != f.Digest {
					t.Errorf("%s: file %s size/digest do not match its bytes (%v)", p, f.Path, err)
				}
			}
		}
		return nil
	})
	for _, f := range c.Forms() {
		forms[f.Ref] = true
		if d, err := wire.Digest(f.DefinitionJSON); err != nil || d != f.Ref.SchemaDigest {
			t.Errorf("%s: recomputed schemaDigest %s (%v)", f.Ref, d, err)
		}
		if indexes[f.Ref] != f.PackageDigest {
			t.Errorf("%s: packageDigest %s, recomputed %s", f.Ref, f.PackageDigest, indexes[f.Ref])
		}
	}
	resolve := func(where string, v any) {
		walkRefs(v, func(m map[string]any) {
			dig, _ := m["schemaDigest"].(string)
			if k, ok := m["kind"].(string); ok {
				ref := wire.FormRef{APIVersion: str(m["apiVersion"]), Kind: k, DefinitionVersion: str(m["definitionVersion"]), SchemaDigest: dig}
				if !forms[ref] {
					t.Errorf("%s: FormRef %s resolves to no loaded Form", where, ref)
				}
				return
			}
			key := str(m["apiVersion"]) + " " + str(m["name"]) + "@" + str(m["version"])
			if contracts[key] != dig {
				t.Errorf("%s: ref %s at %s, loaded digest %q", where, key, dig, contracts[key])
			}
		})
	}
	for _, f := range c.Forms() {
		g, _ := decodeGeneric(f.DefinitionJSON)
		resolve(f.Ref.String(), g)
	}
	for _, b := range c.Bindings() {
		g, _ := decodeGeneric(b.JSON)
		resolve(b.Ref.String(), g)
	}
	if raw, err := fs.ReadFile(fsys, transitionsFile); err == nil {
		g, _ := decodeGeneric(raw)
		resolve(transitionsFile, g)
	}
}

// walkRefs calls fn for every object carrying a schemaDigest member.
func walkRefs(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["schemaDigest"]; ok {
			fn(x)
		}
		for _, e := range x {
			walkRefs(e, fn)
		}
	case []any:
		for _, e := range x {
			walkRefs(e, fn)
		}
	}
}

func TestEmbeddedCatalogDigestsRecomputed(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatalf("embedded catalog does not load:\n%v", err)
	}
	if len(c.Forms()) == 0 {
		t.Fatal("the embedded catalog holds no Forms")
	}
	checkDigests(t, EmbeddedFS(), c)
}

func TestPublishedCatalogDigestsRecomputed(t *testing.T) {
	c := loadPublished(t)
	checkDigests(t, os.DirFS(referenceDir(t)), c)
}

func TestTestCatalogDigestsRecomputed(t *testing.T) {
	c, err := Load(os.DirFS(goodDir))
	if err != nil {
		t.Fatal(err)
	}
	checkDigests(t, os.DirFS(goodDir), c)
}

func TestEmbeddedIsLoadedOnce(t *testing.T) {
	a, err1 := Embedded()
	b, err2 := Embedded()
	if err1 != nil || err2 != nil || a != b {
		t.Errorf("Embedded() must return the same catalog each time (%p %p, %v %v)", a, b, err1, err2)
	}
}
