package rules

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// targetFor resolves a reference the way a host would for a freshly created target:
// the target's recorded FormRef is the relation's first listed ref, or the kind's
// default create ref.
func targetFor(t *testing.T, c *catalog.Catalog, ref Reference) Target {
	t.Helper()
	var f *catalog.Form
	if len(ref.Relation.TargetFormRefs) > 0 {
		f, _ = c.Form(ref.Relation.TargetFormRefs[0])
	} else if k, ok := c.Kind(ref.APIVersion, ref.Kind); ok {
		f = k.DefaultCreate()
	}
	if f == nil {
		t.Fatalf("%s: no installed Form for %s %s", ref.Pointer, ref.APIVersion, ref.Kind)
	}
	return Target{Found: true, APIVersion: f.Ref.APIVersion, Kind: f.Ref.Kind, Name: ref.Name, UID: "u-" + ref.Name,
		FormRef: f.Ref, Provided: f.Provided}
}

// exerciseCatalog runs extraction and verification over every Form's canonical
// fixture: each relation present yields references whose kind and binding come from
// the model, and every reference verifies against the catalog's own contracts.
func exerciseCatalog(t *testing.T, c *catalog.Catalog) {
	relations, bindingRefs := 0, 0
	for _, f := range c.Forms() {
		for _, fx := range f.Fixtures {
			var spec map[string]any
			if err := json.Unmarshal(fx.Desired, &spec); err != nil {
				t.Fatalf("%s fixture %s: %v", f.Ref, fx.Name, err)
			}
			spec = f.Materialize(spec)
			refs, r := ExtractReferences(f, spec)
			if r != nil {
				t.Fatalf("%s fixture %s: %v", f.Ref, fx.Name, r)
			}
			for _, rel := range f.Relations {
				if _, present := spec[firstToken(rel.Pointer)]; !present {
					continue
				}
				if !slices.ContainsFunc(refs, func(x Reference) bool { return x.Relation.Pointer == rel.Pointer }) {
					t.Errorf("%s fixture %s: relation %s is present but yields no reference", f.Ref.Kind, fx.Name, rel.Pointer)
				}
			}
			for _, ref := range refs {
				relations++
				if ref.Kind != ref.Relation.TargetKind || ref.APIVersion != ref.Relation.TargetAPIVersion {
					t.Errorf("%s %s names %s %s, relation wants %s %s", f.Ref.Kind, ref.Pointer, ref.APIVersion, ref.Kind,
						ref.Relation.TargetAPIVersion, ref.Relation.TargetKind)
				}
				if ref.Binding != nil {
					bindingRefs++
					if !slices.Contains(f.Accepted, *ref.Binding) || ref.EntryName == "" {
						t.Errorf("%s %s: binding %v not accepted or entry name empty (%q)", f.Ref.Kind, ref.Pointer, ref.Binding, ref.EntryName)
					}
				}
				if r := VerifyReference(f, ref, targetFor(t, c, ref), HostContracts{Catalog: c}); r != nil {
					t.Errorf("%s fixture %s: %v", f.Ref.Kind, fx.Name, r)
				}
			}
		}
	}
	if relations == 0 || bindingRefs == 0 {
		t.Fatalf("the catalog's fixtures exercised %d references (%d bindings); expected some of each", relations, bindingRefs)
	}
	t.Logf("verified %d references, %d of them bindings", relations, bindingRefs)
}

func TestEmbeddedCatalogRelations(t *testing.T) {
	for _, lane := range wire.Lanes() {
		c, err := catalog.EmbeddedLane(lane)
		if err != nil {
			t.Fatalf("embedded catalog of %s does not load: %v", lane.Name, err)
		}
		exerciseCatalog(t, c)
	}
}

func TestReferenceCatalogRelations(t *testing.T) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			c, err := catalog.Load(os.DirFS(reftest.Lane(t, lane)))
			if err != nil {
				t.Fatalf("reference catalog does not load: %v", err)
			}
			exerciseCatalog(t, c)
		})
	}
}

func TestHostContracts(t *testing.T) {
	c, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	bs := c.Bindings()
	if len(bs) == 0 {
		t.Fatal("embedded catalog has no bindings")
	}
	b := bs[0].Ref
	h := HostContracts{Catalog: c}
	if got, ok := h.InstalledBinding(b); !ok || got.Ref != b {
		t.Fatalf("installed binding %v not found", b)
	}
	other := b
	other.SchemaDigest = "sha256:" + strings.Repeat("0", 64)
	if _, ok := h.InstalledBinding(other); ok {
		t.Fatal("a binding at another digest must not count as installed")
	}
	h.BindingImplemented = func(r wire.BindingRef) bool { return r.Name != b.Name }
	if _, ok := h.InstalledBinding(b); ok {
		t.Fatal("a binding the profile leaves out must not count as installed")
	}
	iface := wire.InterfaceRef{Name: "x"}
	if !h.ImplementsInterface(iface) {
		t.Fatal("nil InterfaceImplemented means all")
	}
	h.InterfaceImplemented = func(wire.InterfaceRef) bool { return false }
	if h.ImplementsInterface(iface) {
		t.Fatal("narrowed interface reported implemented")
	}
}
