package catalog

import (
	"encoding/json"
	"fmt"
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
		{"a file in a contract's version layout", withFiles(func(f map[string][]byte) {
			moveDir(f, iface, iface+"/1.0.0")
			f[iface+"/notes.md"] = []byte("x")
		}), []string{
			`catalog: interfaces/v1alpha1/example.store/notes.md: "": expected a version directory (such as 1.0.0) holding only definition.json`,
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
		{"a lane marker that is a directory", fstest.MapFS{"lane.json/x": {Data: []byte("{}")}},
			[]string{`catalog: lane.json: "": lane.json must be a regular file, not a directory, symbolic link or other special file; replace it with the file itself`}},
		{"a family's candidate-set.json that is a symbolic link", fstest.MapFS{"forms/" + tFamily + "/" + candidateSetFile: {Data: []byte("x"), Mode: fs.ModeSymlink}},
			[]string{"catalog: forms/" + tFamily + `/candidate-set.json: "": candidate-set.json must be a regular file, not a directory, symbolic link or other special file; replace it with the file itself`}},
		{"an interface lane's candidate-set.json that is a symbolic link", fstest.MapFS{"interfaces/v1alpha1/" + candidateSetFile: {Data: []byte("x"), Mode: fs.ModeSymlink}},
			[]string{`catalog: interfaces/v1alpha1/candidate-set.json: "": candidate-set.json must be a regular file, not a directory, symbolic link or other special file; replace it with the file itself`}},
		{"a file named as a version beside a package's definition.json", fstest.MapFS{store + "/0.2.0": {Data: []byte("x")}},
			[]string{"catalog: " + store + `/0.2.0: "": file is in the package directory but not listed in package-index.json; list it or remove it`}},
		{"a file named as a version beside a contract's definition.json", fstest.MapFS{"interfaces/v1alpha1/example.store/1.0.0": {Data: []byte("x")}},
			[]string{`catalog: interfaces/v1alpha1/example.store/1.0.0: "": a contract directory holds only definition.json; remove this entry`}},
		{"an empty contract directory", fstest.MapFS{"interfaces/v1alpha1/empty": {Mode: fs.ModeDir}},
			[]string{`catalog: interfaces/v1alpha1/empty: "": contract directory is empty; add definition.json or remove it`}},
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

// Entries of the catalog root the loader reads, of the wrong type: forms/,
// interfaces/ and bindings/ must be directories, transitions.json a regular
// file (read, each is one line; the rest of the root loads on its own).
func TestRootEntriesOfTheWrongType(t *testing.T) {
	for _, name := range []string{"forms", "interfaces", "bindings"} {
		want := []string{fmt.Sprintf(`catalog: %s: "": %s must be a directory; the catalog root holds a file of that name: remove or rename it`, name, name)}
		if got := loadProblems(t, fstest.MapFS{name: {Data: []byte("x")}}); !slices.Equal(got, want) {
			t.Errorf("a file named %s:\n got %q\nwant %q", name, got, want)
		}
	}
	m := mapFS(baseCatalog().seal(t))
	delete(m, transitionsFile)
	m[transitionsFile+"/x"] = &fstest.MapFile{Data: []byte("{}")}
	want := []string{`catalog: transitions.json: "": transitions.json must be a regular file, not a directory, symbolic link or other special file; replace it with the file itself`}
	if got := loadProblems(t, m); !slices.Equal(got, want) {
		t.Errorf("a transitions.json directory:\n got %q\nwant %q", got, want)
	}
}

// A directory the layout lists but that cannot be listed is its one problem:
// the files it holds, and what names the Forms or contracts it may hold
// (binding targets, provided and required interfaces, transitions, package
// index entries), add no line.
func TestAnUnreadableDirectoryIsItsOwnProblem(t *testing.T) {
	fam := "forms/" + tFamily
	versioned := func(m fstest.MapFS) fstest.MapFS {
		const iface = "interfaces/v1alpha1/example.store"
		m[iface+"/1.0.0/definition.json"] = m[iface+"/definition.json"]
		delete(m, iface+"/definition.json")
		return m
	}
	// a listed file beside the unreadable fixtures/, its name starting alike,
	// is still one the package lacks
	listed := func(m fstest.MapFS) fstest.MapFS {
		index := fam + "/store/" + indexFile
		var d obj
		if err := json.Unmarshal(m[index].Data, &d); err != nil {
			t.Fatal(err)
		}
		files := d["files"].([]any) // definition.json, then fixtures.txt before fixtures/ in byte order
		d["files"] = append([]any{files[0], obj{"path": "fixtures.txt", "mediaType": "text/plain", "size": 1, "digest": zeroDig}}, files[1:]...)
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		m[index] = &fstest.MapFile{Data: b}
		return m
	}
	for _, c := range []struct {
		dir  string
		edit func(fstest.MapFS) fstest.MapFS
		line string   // the error's message after the directory
		more []string // lines that do not follow from it
	}{
		{"forms", nil, "cannot read the directory", nil},
		{fam, nil, "cannot read the directory", nil},
		{fam + "/store", nil, "cannot read the directory", nil},
		{fam + "/gadget/0.1.0", nil, "cannot read the directory", nil},
		{fam + "/store/fixtures", nil, "cannot read", nil},
		{fam + "/store/fixtures", listed, "cannot read", []string{
			"catalog: " + fam + `/store/package-index.json: /files/1/path: lists "fixtures.txt", which does not exist in the package; add the file or drop the entry`}},
		{"interfaces", nil, "cannot read the directory", nil},
		{"interfaces/v1alpha1", nil, "cannot read the directory", nil},
		{"bindings/v1alpha1", nil, "cannot read the directory", nil},
		{"interfaces/v1alpha1/example.store", nil, "cannot read the directory", nil},
		{"interfaces/v1alpha1/example.store/1.0.0", versioned, "cannot read the directory", nil},
	} {
		m := mapFS(baseCatalog().seal(t))
		if c.edit != nil {
			m = c.edit(m)
		}
		want := append([]string{fmt.Sprintf(`catalog: %s: "": %s: open %s: permission denied`, c.dir, c.line, c.dir)}, c.more...)
		if got := loadProblems(t, unreadable{m, c.dir}); !slices.Equal(got, want) {
			t.Errorf("%s unreadable:\n got %q\nwant %q", c.dir, got, want)
		}
	}
}

// A package whose kind-slug is several words marks its kind broken under the
// kind's own name, so what names that kind adds no line.
func TestABrokenKindIsFoundByItsKindName(t *testing.T) {
	ps := &problems{}
	ps.markKind("worker-version")
	if !ps.kindBroken("WorkerVersion") || ps.kindBroken("Worker") || ps.kindBroken("Version") {
		t.Errorf("after marking worker-version: WorkerVersion %v, Worker %v, Version %v; want true, false, false",
			ps.kindBroken("WorkerVersion"), ps.kindBroken("Worker"), ps.kindBroken("Version"))
	}
}
