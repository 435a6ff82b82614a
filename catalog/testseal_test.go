package catalog

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// seal fills every exact ref's digest in dependency order and renders the files.
func (c *tcat) seal(t testing.TB) map[string][]byte {
	files := map[string][]byte{}
	digests := map[string]string{} // "name@version" or "Kind@version" -> digest
	render := func(v any) []byte {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	digestOf := func(b []byte) string {
		d, err := wire.Digest(b)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var fill func(v any)
	fill = func(v any) {
		switch x := v.(type) {
		case obj:
			if _, ok := x["schemaDigest"]; ok {
				key := fmt.Sprint(x["name"], "@", x["version"])
				if k, ok := x["kind"]; ok {
					key = fmt.Sprint(x["apiVersion"], " ", k, "@", x["definitionVersion"])
				}
				if d, ok := digests[key]; ok {
					x["schemaDigest"] = d
				}
			}
			for _, e := range x {
				fill(e)
			}
		case []any:
			for _, e := range x {
				fill(e)
			}
		}
	}
	if c.iface != nil {
		b := render(c.iface)
		files[path.Join("interfaces/v1alpha1", c.iface["name"].(string), definitionFile)] = b
		digests[fmt.Sprint(c.iface["name"], "@", c.iface["version"])] = digestOf(b)
	}
	if c.binding != nil {
		fill(c.binding)
		b := render(c.binding)
		files[path.Join("bindings/v1alpha1", c.binding["name"].(string), definitionFile)] = b
		digests[fmt.Sprint(c.binding["name"], "@", c.binding["version"])] = digestOf(b)
	}
	for _, f := range c.forms {
		fill(f.def)
		fam := f.family
		if fam == "" {
			fam = tFamily
		}
		dir := path.Join("forms", fam, f.slug)
		if f.versioned {
			dir = path.Join(dir, f.version)
		}
		pkg := map[string][]byte{definitionFile: render(f.def)}
		for p, doc := range f.fixtures {
			pkg[p] = render(doc)
		}
		for p, b := range f.extraFiles {
			files[path.Join(dir, p)] = b
		}
		def := digestOf(pkg[definitionFile])
		digests[fmt.Sprint(f.def["apiVersion"], " ", f.def["kind"], "@", f.def["definitionVersion"])] = def
		var list []any
		for _, p := range sortedKeys(pkg) {
			mt := mediaJSON
			if p == definitionFile {
				mt = mediaDefinition
			}
			list = append(list, obj{"path": p, "mediaType": mt, "size": len(pkg[p]), "digest": wire.RawDigest(pkg[p])})
			files[path.Join(dir, p)] = pkg[p]
		}
		ref := formRefOf(f.def["kind"].(string), f.def["definitionVersion"].(string))
		ref["apiVersion"], ref["schemaDigest"] = f.def["apiVersion"], def
		files[path.Join(dir, indexFile)] = render(obj{"apiVersion": wire.PackageAPIVersion, "kind": "FormPackage",
			"formRef": ref, "definitionPath": definitionFile, "files": list})
	}
	if c.transitions != nil {
		fill(c.transitions)
		files[transitionsFile] = render(c.transitions)
	}
	for _, p := range c.post {
		p(files)
	}
	return files
}

func writeTree(t testing.TB, dir string, files map[string][]byte) {
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for p, b := range files {
		fp := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(fp), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readTree(t testing.TB, dir string) map[string][]byte {
	out := map[string][]byte{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out[filepath.ToSlash(rel)], _ = os.ReadFile(p)
		}
		return nil
	})
	return out
}

func treeDiff(want, got map[string][]byte) string {
	var d []string
	for p, b := range want {
		if g, ok := got[p]; !ok || string(g) != string(b) {
			d = append(d, p)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			d = append(d, p)
		}
	}
	sort.Strings(d)
	return strings.Join(d, ", ")
}
