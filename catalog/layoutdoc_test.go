package catalog

import (
	"io/fs"
	"maps"
	"slices"
	"testing"
	"testing/fstest"
)

// The catalog's layout (docs/catalog-rules.md#layout), each rule broken once,
// with the whole list of problems: what the rule skips adds no line of its own.
func TestLayoutRules(t *testing.T) {
	fam := "forms/" + tFamily
	iface := "interfaces/v1alpha1/example.store"
	checkProblems(t, []problemCase{
		{"a family directory's name", withFiles(func(f map[string][]byte) { copyDir(f, fam+"/store", "forms/Edge_V1/store") }), []string{
			`catalog: forms/Edge_V1: "": family directory name must match ^[a-z0-9][a-z0-9.-]{0,62}$; rename it (for example edge-v1alpha1)`,
		}},
		{"a file directly under forms", withFiles(func(f map[string][]byte) { f["forms/readme.md"] = []byte("x") }), []string{
			`catalog: forms/readme.md: "": only family directories belong directly under forms/; move or remove this file`,
		}},
		{"a file in an interfaces lane directory", withFiles(func(f map[string][]byte) { f["interfaces/v1alpha1/readme.md"] = []byte("x") }), []string{
			`catalog: interfaces/v1alpha1/readme.md: "": only contract directories and an optional candidate-set.json belong here; move or remove this file`,
		}},
		{"a directory in a contract directory", withFiles(func(f map[string][]byte) { f[iface+"/docs/notes.md"] = []byte("x") }), []string{
			"catalog: " + iface + `/docs: "": a contract directory holds only definition.json; remove this entry`,
		}},
		{"a file in a family directory", withFiles(func(f map[string][]byte) { f[fam+"/notes.md"] = []byte("x") }), []string{
			`catalog: forms/example-v1alpha1/notes.md: "": a family directory holds only kind-slug directories and an optional candidate-set.json; move or remove this file`,
		}},
		{"a kind-slug directory's name", withFiles(func(f map[string][]byte) { copyDir(f, fam+"/store", fam+"/Store_X") }), []string{
			`catalog: forms/example-v1alpha1/Store_X: "": kind-slug directory must be the kind in lower case with hyphens between words (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$)`,
		}},
		{"both layouts in one kind", withFiles(func(f map[string][]byte) { copyDir(f, fam+"/store", fam+"/store/0.2.0") }), []string{
			`catalog: forms/example-v1alpha1/store: "": directory mixes the single-version layout (definition.json) with version directory "0.2.0"; use one layout: move definition.json and its files into a version directory`,
		}},
		{"a version directory without a definition", withFiles(func(f map[string][]byte) { f[fam+"/gadget/0.3.0/notes.md"] = []byte("x") }), []string{
			`catalog: forms/example-v1alpha1/gadget/0.3.0: "": version directory has no definition.json; add the Form Definition or remove the directory`,
		}},
		{"a file directly under interfaces", withFiles(func(f map[string][]byte) { f["interfaces/readme.txt"] = []byte("x") }), []string{
			`catalog: interfaces/readme.txt: "": only version directories (such as v1alpha1) belong directly under interfaces/; move or remove this file`,
		}},
		{"a file directly under bindings", withFiles(func(f map[string][]byte) { f["bindings/readme.txt"] = []byte("x") }), []string{
			`catalog: bindings/readme.txt: "": only version directories (such as v1alpha1) belong directly under bindings/; move or remove this file`,
		}},
		{"a file in a contract directory", withFiles(func(f map[string][]byte) { f[iface+"/notes.md"] = []byte("x") }), []string{
			`catalog: interfaces/v1alpha1/example.store/notes.md: "": a contract directory holds only definition.json; remove this entry`,
		}},
		{"a contract in both layouts", withFiles(func(f map[string][]byte) { f[iface+"/1.0.0/definition.json"] = f[iface+"/definition.json"] }), []string{
			`catalog: interfaces/v1alpha1/example.store: "": directory mixes definition.json with version directory "1.0.0"; use one layout`,
		}},
		{"a contract version directory of another name", withFiles(func(f map[string][]byte) { moveDir(f, iface, iface+"/latest") }), []string{
			`catalog: interfaces/v1alpha1/example.store/latest: "": expected a version directory (such as 1.0.0) holding only definition.json`,
		}},
		{"a contract version directory holding more", withFiles(func(f map[string][]byte) {
			moveDir(f, iface, iface+"/1.0.0")
			f[iface+"/1.0.0/notes.md"] = []byte("x")
		}), []string{
			`catalog: interfaces/v1alpha1/example.store/1.0.0: "": expected a version directory (such as 1.0.0) holding only definition.json`,
		}},
		{"a contract version directory without a definition", withFiles(func(f map[string][]byte) {
			moveDir(f, iface, iface+"/1.0.0")
			f[iface+"/1.1.0/notes.md"] = []byte("x")
		}), []string{
			`catalog: interfaces/v1alpha1/example.store/1.1.0: "": expected a version directory (such as 1.0.0) holding only definition.json`,
		}},
	})
}

// What a file map cannot say: a symbolic link or another non-regular file in a
// package, a kind-slug directory left empty, a definition.json that is a
// directory.
func TestLayoutRulesOfFileTypes(t *testing.T) {
	store := "forms/" + tFamily + "/store"
	for _, c := range []struct {
		name string
		add  fstest.MapFS
		want []string
	}{
		{"a symbolic link in a package", fstest.MapFS{store + "/link.json": {Data: []byte("definition.json"), Mode: fs.ModeSymlink}},
			[]string{"catalog: " + store + `/link.json: "": symbolic links are not allowed in a package; replace it with the file itself`}},
		{"a named pipe in a package", fstest.MapFS{store + "/pipe": {Mode: fs.ModeNamedPipe}},
			[]string{"catalog: " + store + `/pipe: "": only regular files belong in a package`}},
		{"an empty kind-slug directory", fstest.MapFS{"forms/" + tFamily + "/empty": {Mode: fs.ModeDir}},
			[]string{"catalog: forms/" + tFamily + `/empty: "": kind-slug directory is empty; add a package or remove it`}},
		{"a definition.json that is a directory", fstest.MapFS{"forms/" + tFamily + "/extra/definition.json/x": {Data: []byte("{}")}},
			[]string{"catalog: forms/" + tFamily + `/extra/definition.json: "": version directory name "definition.json" is not a semantic version; name it after the definitionVersion (for example 0.1.0)`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := mapFS(baseCatalog().seal(t))
			maps.Copy(m, c.add)
			if got := loadProblems(t, m); !slices.Equal(got, c.want) {
				t.Errorf("problems:\n got %q\nwant %q", got, c.want)
			}
		})
	}
}
