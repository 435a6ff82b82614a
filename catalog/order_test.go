package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// withContractCopy adds a copy of the sealed contract document at from under
// <dir>/<name>/<version>/definition.json, with that name and version.
func withContractCopy(t *testing.T, files map[string][]byte, from, dir, name, version string) {
	t.Helper()
	var d obj
	if err := json.Unmarshal(files[from], &d); err != nil {
		t.Fatal(err)
	}
	d["name"], d["version"] = name, version
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	files[fmt.Sprintf("%s/%s/%s/%s", dir, name, version, definitionFile)] = b
}

// TestLoadSortsWhatItReads: the catalog lists Forms by apiVersion, kind, then
// definition version, and Interfaces and Bindings by name, then version (semver,
// not the byte order of their directories), whatever order the directories come
// in (docs/catalog-rules.md#layout). Here each key disagrees with the
// directories: a family directory that sorts first holds the group that sorts
// last, version directories 0.10.0 and 0.9.0 sort before their elders, and a
// contract of a later name holds a lower version than one of an earlier name.
func TestLoadSortsWhatItReads(t *testing.T) {
	const late = "zzz.forms.takokit.dev/v1alpha1"
	c := baseCatalog()
	c.forms = append(c.forms, gadget("0.10.0", true))
	alpha := &tform{family: "aaa-v1alpha1", slug: "alpha", version: "0.1.0", def: obj{}, fixtures: c.form("Store", "0.1.0").fixtures}
	for k, v := range c.form("Store", "0.1.0").def {
		alpha.def[k] = v
	}
	alpha.def["apiVersion"], alpha.def["kind"], alpha.def["title"] = late, "Alpha", "Alpha"
	c.forms = append(c.forms, alpha)
	c.post = append(c.post, func(files map[string][]byte) {
		for _, v := range []string{"0.10.0", "0.9.0"} {
			withContractCopy(t, files, ifaceD, "interfaces/v1alpha1", "example.zeta", v)
			withContractCopy(t, files, bindingD, "bindings/v1alpha1", "holder.zeta", v)
		}
	})
	cat, err := Load(mapFS(c.seal(t)))
	if err != nil {
		t.Fatal(err)
	}
	var forms []string
	for _, f := range cat.Forms() {
		forms = append(forms, fmt.Sprintf("%s %s@%s", f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion))
	}
	g := func(kind, v string) string { return fmt.Sprintf("%s %s@%s", tGroup, kind, v) }
	want := []string{g("Gadget", "0.1.0"), g("Gadget", "0.2.0"), g("Gadget", "0.10.0"), g("Holder", "0.1.0"), g("Store", "0.1.0"), late + " Alpha@0.1.0"}
	if !slices.Equal(forms, want) {
		t.Errorf("Forms in the order\n%q\nwant\n%q", forms, want)
	}
	var kinds []string
	for _, k := range cat.Kinds() {
		kinds = append(kinds, fmt.Sprintf("%s %s %d", k.APIVersion, k.Kind, len(k.Versions)))
	}
	wantKinds := []string{tGroup + " Gadget 3", tGroup + " Holder 1", tGroup + " Store 1", late + " Alpha 1"}
	if !slices.Equal(kinds, wantKinds) {
		t.Errorf("Kinds\n%q\nwant\n%q", kinds, wantKinds)
	}
	var ifaces, bindings []string
	for _, i := range cat.Interfaces() {
		ifaces = append(ifaces, i.Ref.Name+"@"+i.Ref.Version)
	}
	for _, b := range cat.Bindings() {
		bindings = append(bindings, b.Ref.Name+"@"+b.Ref.Version)
	}
	if want := []string{"example.store@1.0.0", "example.zeta@0.9.0", "example.zeta@0.10.0"}; !slices.Equal(ifaces, want) {
		t.Errorf("Interfaces in the order %q, want %q", ifaces, want)
	}
	if want := []string{"holder.store@1.0.0", "holder.zeta@0.9.0", "holder.zeta@0.10.0"}; !slices.Equal(bindings, want) {
		t.Errorf("Bindings in the order %q, want %q", bindings, want)
	}
}
