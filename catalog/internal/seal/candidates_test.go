package seal

import (
	"strings"
	"testing"
)

// A listing's formRef.schemaDigest and packageDigest are the sealed definition's
// digest and the digest of the package index the seal wrote; an interface listing's
// schemaDigest is the interface's. Every other byte of the listing stays as authored.
func TestSealRewritesCandidateSetDigests(t *testing.T) {
	listing := "{\n  \"format\": \"x.example.dev/listing@v1\",\n  \"family\": \"x.example.dev/v1\",\n  \"forms\": [\n    {\"resourceType\": \"takoform_a\", \"formRef\": " + formRef("A") +
		", \"packageDigest\": \"" + zero + "\"},\n    {\"note\": \"no formRef, left alone\", \"packageDigest\": \"" + zero + "\"}\n  ]\n}\n"
	ifaces := `{"interfaces": [{"name": "x.iface", "version": "1.0.0", "schemaDigest": "` + zero + `", "extra": "` + zero + `"}]}`
	iface := `{"apiVersion": "interfaces.takoform.com/v1alpha1", "kind": "InterfaceDefinition", "name": "x.iface", "version": "1.0.0"}`
	dir := writeTree(t, map[string]string{
		"forms/x/a/0.1.0/definition.json":             form("A", ""),
		"forms/x/candidate-set.json":                  listing,
		"interfaces/v1alpha1/x.iface/definition.json": iface,
		"interfaces/v1alpha1/candidate-set.json":      ifaces,
	})
	changed, err := Seal(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(changed, ","), "forms/x/candidate-set.json") {
		t.Errorf("Seal did not report the listing as changed: %v", changed)
	}
	got := readAll(t, dir)
	schema, err := digestOf([]byte(form("A", "")))
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := digestOf([]byte(got["forms/x/a/0.1.0/"+indexName]))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(listing, zero, schema, 1), zero, pkg, 1)
	if got["forms/x/candidate-set.json"] != want {
		t.Errorf("listing after seal:\n%s\nwant only formRef.schemaDigest and packageDigest of the first entry replaced:\n%s", got["forms/x/candidate-set.json"], want)
	}
	ifaceDigest, err := digestOf([]byte(iface))
	if err != nil {
		t.Fatal(err)
	}
	if wantI := strings.Replace(ifaces, zero, ifaceDigest, 1); got["interfaces/v1alpha1/candidate-set.json"] != wantI {
		t.Errorf("interface listing after seal:\n%s\nwant:\n%s", got["interfaces/v1alpha1/candidate-set.json"], wantI)
	}
	if again, err := Seal(dir); err != nil || len(again) != 0 {
		t.Errorf("second seal: changed %v, err %v; sealing must be idempotent", again, err)
	}
}

// A listing entry naming a Form the catalog does not hold stops the seal, naming the
// listing and the entry, and nothing is written.
func TestSealRefusesListingOfUnknownForm(t *testing.T) {
	listing := `{"forms": [{"formRef": ` + formRef("Gone") + `, "packageDigest": "` + zero + `"}]}`
	dir := writeTree(t, map[string]string{
		"forms/x/a/0.1.0/definition.json": form("A", ""),
		"forms/x/candidate-set.json":      listing,
	})
	_, err := Seal(dir)
	if err == nil {
		t.Fatal("Seal accepted a listing of a Form that is not in the catalog")
	}
	for _, frag := range []string{"forms/x/candidate-set.json", "/forms/0/formRef", "Form x.example.dev/v1 Gone@0.1.0", "not in this catalog"} {
		if !strings.Contains(err.Error(), frag) {
			t.Errorf("error %q does not mention %q", err, frag)
		}
	}
	if got := readAll(t, dir); got["forms/x/candidate-set.json"] != listing || got["forms/x/a/0.1.0/"+indexName] != "" {
		t.Error("Seal wrote files although the listing could not be sealed")
	}
}
