package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A published candidate-set.json must list exactly what was loaded; a Form
// listing also names the family's maturity and each Form's provider type
// (docs/catalog-rules.md#layout, #naming). Each way a listing can be wrong is its
// own line, and a listing of what was loaded loads.
func TestCandidateSetRules(t *testing.T) {
	good := loadBase(t)
	formsFile := "forms/" + tFamily + "/" + candidateSetFile
	ifacesFile := "interfaces/v1alpha1/" + candidateSetFile
	bindingsFile := "bindings/v1alpha1/" + candidateSetFile
	var forms []any
	for _, f := range good.Forms() {
		forms = append(forms, obj{"formRef": f.Ref, "packageDigest": f.PackageDigest})
	}
	i, _ := good.Interface("example.store", "1.0.0")
	b, _ := good.Binding("holder.store", "1.0.0")
	ifaces := []any{obj{"name": "example.store", "version": "1.0.0", "schemaDigest": i.Ref.SchemaDigest}}
	bindings := []any{obj{"name": "holder.store", "version": "1.0.0", "schemaDigest": b.Ref.SchemaDigest}}
	listing := func(file string, doc obj) func(c *tcat) {
		return withFiles(func(files map[string][]byte) {
			raw, err := json.Marshal(doc)
			if err != nil {
				panic(err)
			}
			files[file] = raw
		})
	}
	raw := func(file, text string) func(c *tcat) {
		return withFiles(func(files map[string][]byte) { files[file] = []byte(text) })
	}
	line := func(file, ptr, msg string, args ...any) []string {
		return []string{problemLine(file, ptr, msg, args...)}
	}
	withEntry := func(extra ...any) []any { return append(append([]any{}, forms...), extra...) }
	store, _ := good.Kind(tGroup, "Store")
	typed := func(rt string) []any {
		var out []any
		for _, f := range forms {
			e := obj{}
			for k, v := range f.(obj) {
				e[k] = v
			}
			if e["formRef"] == store.Versions[0].Ref {
				e["resourceType"] = rt
			}
			out = append(out, e)
		}
		return out
	}
	storeIndex := func() int {
		for n, f := range forms {
			if f.(obj)["formRef"] == store.Versions[0].Ref {
				return n
			}
		}
		panic("no Store")
	}()
	checkProblems(t, []problemCase{
		{"every listing as loaded", func(c *tcat) {
			listing(formsFile, obj{"family": tFamily, "formMaturity": "experimental", "forms": forms})(c)
			listing(ifacesFile, obj{"family": "edge-v1beta1", "interfaces": ifaces})(c)
			listing(bindingsFile, obj{"family": "edge-v1beta1", "bindings": bindings})(c)
		}, nil},
		{"an entry without a formRef", listing(formsFile, obj{"forms": withEntry(obj{"packageDigest": "sha256:x"})}), nil},
		{"a Form loaded under another package digest", listing(formsFile, obj{"forms": withEntry(obj{"formRef": store.Versions[0].Ref, "packageDigest": zeroDig})}),
			line(formsFile, `""`, "lists %s package %s, which was not loaded with that digest; the listing and the documents disagree", store.Versions[0].Ref, zeroDig)},
		{"a loaded Form not listed", listing(formsFile, obj{"forms": forms[1:]}),
			line(formsFile, `""`, "does not list the loaded %s package %s; update the listing or remove it", forms[0].(obj)["formRef"], forms[0].(obj)["packageDigest"])},
		{"an Interface of another digest", listing(ifacesFile, obj{"interfaces": []any{obj{"name": "example.store", "version": "1.0.0", "schemaDigest": zeroDig}}}),
			append(line(ifacesFile, `""`, "lists example.store@1.0.0 (%s), which was not loaded with that digest; the listing and the documents disagree", zeroDig),
				line(ifacesFile, `""`, "does not list the loaded %s; update the listing or remove it", i.Ref)...)},
		{"a Binding not listed", listing(bindingsFile, obj{"bindings": []any{}}),
			line(bindingsFile, `""`, "does not list the loaded %s; update the listing or remove it", b.Ref)},
		{"a resource type outside the grammar", listing(formsFile, obj{"forms": typed("Store")}),
			line(formsFile, fmt.Sprintf("/forms/%d/resourceType", storeIndex), `resourceType "Store" is not a provider type name (takoform_ and lower-case words joined by _)`)},
		{"a listing that is not I-JSON", raw(formsFile, `{"forms": [], "forms": []}`), line(formsFile, "/forms", `duplicate member name "forms"; every member name in an object must be unique (byte 21)`)},
		{"a listing that is no object", raw(formsFile, `[]`), line(formsFile, `""`, "cannot read the listing: json: cannot unmarshal array into Go value of type catalog.candidateSetDoc")},
	})
	// what a Form listing names (a contract listing names no Form's maturity or type)
	c := baseCatalog()
	listing(formsFile, obj{"family": tFamily, "formMaturity": "experimental", "forms": typed("takoform_store_box")})(c)
	listing(ifacesFile, obj{"formMaturity": "stable", "forms": typed("takoform_store_crate"), "interfaces": ifaces})(c)
	named, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range named.Forms() {
		want := f.TypeName
		if f.Ref.Kind == "Store" {
			want = "takoform_store_box"
		}
		if f.Maturity != "experimental" || f.TypeName != want {
			t.Errorf("%s: maturity %q, type %s; want experimental, %s", f.Ref, f.Maturity, f.TypeName, want)
		}
	}
	if s, _ := named.Kind(tGroup, "Store"); s.Versions[0].TypeName != "takoform_store_box" {
		t.Errorf("Store's type %s", s.Versions[0].TypeName)
	}
}

// A listing the layout names but that cannot be read is its one problem.
func TestAnUnreadableCandidateSetIsItsOwnProblem(t *testing.T) {
	file := "forms/" + tFamily + "/" + candidateSetFile
	files := baseCatalog().seal(t)
	files[file] = []byte(`{}`)
	want := []string{fmt.Sprintf(`catalog: %s: "": cannot read: open %s: permission denied`, file, file)}
	if got := loadProblems(t, unreadable{mapFS(files), file}); !slices.Equal(got, want) {
		t.Errorf("problems:\n got %q\nwant %q", got, want)
	}
}

// TestABrokenDocumentIsNotAlsoAListingProblem: a listed Form, Interface or
// Binding whose definition does not parse has that one problem line; the listing
// naming it, which "was not loaded with that digest" only because of it, adds none
// (it printed the consequence first, above its cause).
func TestABrokenDocumentIsNotAlsoAListingProblem(t *testing.T) {
	good := loadBase(t)
	var forms []any
	for _, f := range good.Forms() {
		forms = append(forms, obj{"formRef": f.Ref, "packageDigest": f.PackageDigest})
	}
	i, _ := good.Interface("example.store", "1.0.0")
	b, _ := good.Binding("holder.store", "1.0.0")
	for _, broken := range []string{storeD, ifaceD, bindingD} {
		c := baseCatalog()
		withFiles(func(files map[string][]byte) {
			for file, doc := range map[string]obj{
				"forms/" + tFamily + "/" + candidateSetFile: {"family": tFamily, "formMaturity": "experimental", "forms": forms},
				"interfaces/v1alpha1/" + candidateSetFile:   {"interfaces": []any{obj{"name": "example.store", "version": "1.0.0", "schemaDigest": i.Ref.SchemaDigest}}},
				"bindings/v1alpha1/" + candidateSetFile:     {"bindings": []any{obj{"name": "holder.store", "version": "1.0.0", "schemaDigest": b.Ref.SchemaDigest}}},
			} {
				raw, _ := json.Marshal(doc)
				files[file] = raw
			}
			files[broken] = files[broken][:len(files[broken])/2]
		})(c)
		_, err := Load(mapFS(c.seal(t)))
		if err == nil {
			t.Fatalf("a half %s loaded", broken)
		}
		msg := err.Error()
		if !strings.Contains(msg, broken+": ") || strings.Contains(msg, "which was not loaded with that digest") {
			t.Errorf("half of %s:\n%s\nwant its own line and no listing line", broken, msg)
		}
	}
}
