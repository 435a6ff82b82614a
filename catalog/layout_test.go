package catalog

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func mapFS(files map[string][]byte) fstest.MapFS {
	m := fstest.MapFS{}
	for p, b := range files {
		m[p] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	return m
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// The test catalog holds both layouts: Store and Holder single-version, Gadget versioned.
func TestLayoutsAccepted(t *testing.T) {
	c := loadGood(t)
	for _, k := range c.Kinds() {
		if len(k.Versions) == 0 {
			t.Errorf("kind %s has no versions", k.Kind)
		}
	}
	if len(c.Kinds()) != 3 || len(c.Forms()) != 4 {
		t.Errorf("kinds %d forms %d", len(c.Kinds()), len(c.Forms()))
	}
}

func TestUnrelatedRootEntriesIgnored(t *testing.T) {
	files := baseCatalog().seal(t)
	files["README.md"] = []byte("# notes\n")
	files["schemas/x.schema.json"] = []byte("not even json")
	files["conformance/contract.json"] = []byte("{}")
	if _, err := Load(mapFS(files)); err != nil {
		t.Errorf("root entries other than forms/, interfaces/, bindings/, transitions.json and the lane markers must be ignored: %v", err)
	}
}

func TestStrayFilesRefused(t *testing.T) {
	for p, frag := range map[string]string{
		"forms/stray.json":                      "only family directories",
		"forms/" + tFamily + "/notes.md":        "optional candidate-set.json",
		"forms/" + tFamily + "/gadget/notes.md": "either definition.json",
		"forms/" + tFamily + "/gadget/v1/x":     "not a semantic version",
		"interfaces/v1alpha1/readme.txt":        "contract directories",
	} {
		files := baseCatalog().seal(t)
		files[p] = []byte("x")
		_, err := Load(mapFS(files))
		if err == nil || !containsAll(err.Error(), frag) {
			t.Errorf("%s: want refusal containing %q, got %v", p, frag, err)
		}
	}
}

func TestCandidateSetCompared(t *testing.T) {
	files := baseCatalog().seal(t)
	good, err := Load(mapFS(files))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := good.Kind(tGroup, "Store")
	ref := s.DefaultCreate().Ref
	entry := `{"kind":"Store","path":"anything","formRef":{"apiVersion":"` + ref.APIVersion + `","kind":"Store","definitionVersion":"0.1.0","schemaDigest":"` + ref.SchemaDigest + `"},"packageDigest":"` + s.DefaultCreate().PackageDigest + `"}`
	var all []string
	for _, f := range good.Forms() {
		all = append(all, `{"formRef":{"apiVersion":"`+f.Ref.APIVersion+`","kind":"`+f.Ref.Kind+`","definitionVersion":"`+f.Ref.DefinitionVersion+`","schemaDigest":"`+f.Ref.SchemaDigest+`"},"packageDigest":"`+f.PackageDigest+`","extra":1}`)
	}
	files["forms/"+tFamily+"/candidate-set.json"] = []byte(`{"format":"x","publicationStatus":"y","forms":[` + strings.Join(all, ",") + `]}`)
	if _, err := Load(mapFS(files)); err != nil {
		t.Errorf("a matching candidate set must load: %v", err)
	}
	files["forms/"+tFamily+"/candidate-set.json"] = []byte(`{"forms":[` + entry + `]}`)
	if _, err := Load(mapFS(files)); err == nil || !strings.Contains(err.Error(), "does not list the loaded") {
		t.Errorf("a candidate set missing Forms must be refused, got %v", err)
	}
}

func TestEmptyAndMissingRoots(t *testing.T) {
	c, err := Load(fstest.MapFS{})
	if err != nil || len(c.Forms()) != 0 || len(c.Kinds()) != 0 {
		t.Errorf("an empty root is an empty catalog: %v", err)
	}
	_, err = Load(os.DirFS(t.TempDir() + "/missing"))
	if err == nil || !strings.Contains(err.Error(), "cannot read the catalog root") {
		t.Errorf("a missing root must be refused with a clear message, got %v", err)
	}
}

func TestContractVersionDirectories(t *testing.T) {
	files := baseCatalog().seal(t)
	files["interfaces/v1alpha1/example.store/1.0.0/definition.json"] = files[ifaceD]
	delete(files, ifaceD)
	if _, err := Load(mapFS(files)); err != nil {
		t.Errorf("<name>/<version>/definition.json must load: %v", err)
	}
	files[ifaceD] = files["interfaces/v1alpha1/example.store/1.0.0/definition.json"]
	if _, err := Load(mapFS(files)); err == nil || !strings.Contains(err.Error(), "mixes definition.json with version directory") {
		t.Errorf("mixing layouts must be refused, got %v", err)
	}
	files = baseCatalog().seal(t)
	files["interfaces/v1alpha1/example.store/2.0.0/definition.json"] = files[ifaceD]
	delete(files, ifaceD)
	if _, err := Load(mapFS(files)); err == nil || !strings.Contains(err.Error(), `must equal its directory name "2.0.0"`) {
		t.Errorf("a version directory must equal the document's version, got %v", err)
	}
}

// The canonical fixture comes first whatever order a definition declares its
// fixtures in: consumers that need one valid instance take Fixtures[0].
func TestCanonicalFixtureComesFirst(t *testing.T) {
	c := baseCatalog()
	st := c.form("Store", "0.1.0")
	st.def["conformanceFixtures"] = []any{
		obj{"name": "minimal", "desiredPath": "fixtures/minimal.json"},
		obj{"name": "second", "desiredPath": "fixtures/second.json"},
		obj{"name": "canonical", "desiredPath": "fixtures/desired.json"},
	}
	st.fixtures["fixtures/minimal.json"] = obj{}
	st.fixtures["fixtures/second.json"] = obj{}
	cat, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	k, ok := cat.Kind(tGroup, "Store")
	if !ok {
		t.Fatal("no Store")
	}
	var names []string
	for _, fx := range k.Versions[0].Fixtures {
		names = append(names, fx.Name)
	}
	if strings.Join(names, ",") != "canonical,minimal,second" {
		t.Fatalf("fixtures in the order %v, want the canonical one first and the rest as declared", names)
	}
}
