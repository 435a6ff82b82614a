package catalog

import (
	"io/fs"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestPrecheckedLoadDerivesTheSameCatalog: LoadPrechecked skips only checks that
// reject, so over a root Load accepts it derives the very same model, and the schemas
// it defers still validate (and refuse) on first use.
func TestPrecheckedLoadDerivesTheSameCatalog(t *testing.T) {
	for name, fsys := range map[string]fs.FS{"embedded": EmbeddedFS(), "test catalog": os.DirFS(goodDir)} {
		t.Run(name, func(t *testing.T) {
			full, err := Load(fsys)
			if err != nil {
				t.Fatal(err)
			}
			fast, err := LoadPrechecked(fsys)
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Forms()) != len(fast.Forms()) || len(full.Kinds()) != len(fast.Kinds()) ||
				len(full.Interfaces()) != len(fast.Interfaces()) || len(full.Bindings()) != len(fast.Bindings()) ||
				len(full.Transitions()) != len(fast.Transitions()) {
				t.Fatalf("prechecked load has another shape than Load")
			}
			for i, f := range full.Forms() {
				g := fast.Forms()[i]
				if f.Ref != g.Ref || f.PackageDigest != g.PackageDigest || !reflect.DeepEqual(f.Fields, g.Fields) ||
					!reflect.DeepEqual(f.Outputs, g.Outputs) || !reflect.DeepEqual(f.Relations, g.Relations) ||
					!reflect.DeepEqual(f.Fixtures, g.Fixtures) || !reflect.DeepEqual(f.Provided, g.Provided) {
					t.Errorf("%s: prechecked load derives another model", f.Ref)
				}
				for _, fx := range g.Fixtures {
					if err := g.ValidateDesired(fx.Desired); err != nil {
						t.Errorf("%s fixture %s: deferred desiredSchema refuses it: %v", g.Ref, fx.Name, err)
					}
				}
				for _, nf := range g.NegativeFixtures {
					if nf.Stage == "desired" && g.ValidateDesired(nf.Input) == nil {
						t.Errorf("%s negative fixture %s: deferred desiredSchema accepts it", g.Ref, nf.Name)
					}
				}
			}
		})
	}
}

// TestDefinitionWithoutFixturesLoads: conformanceFixtures is optional in the published
// definition schema, so a Form without any loads (in both load modes) and says why no
// fixture-needing check applies; a declared set without "canonical" is still refused.
func TestDefinitionWithoutFixturesLoads(t *testing.T) {
	c := baseCatalog()
	holder := c.form("Holder", "0.1.0")
	delete(holder.def, "conformanceFixtures")
	delete(holder.def, "negativeConformanceFixtures")
	holder.fixtures = nil
	tree := mapFS(c.seal(t))
	for _, load := range []func(fs.FS) (*Catalog, error){Load, LoadPrechecked} {
		cat, err := load(tree)
		if err != nil {
			t.Fatalf("a definition without conformanceFixtures must load:\n%v", err)
		}
		var found bool
		for _, f := range cat.Forms() {
			if f.Ref.Kind != "Holder" {
				if _, _, ok := f.CanonicalFixture(); !ok {
					t.Errorf("%s has fixtures but no canonical one", f.Ref.Kind)
				}
				continue
			}
			found = true
			if _, why, ok := f.CanonicalFixture(); ok || !strings.Contains(why, "declares no conformanceFixtures") {
				t.Errorf("Holder: CanonicalFixture = ok %v, %q", ok, why)
			}
		}
		if !found {
			t.Fatal("Holder did not load")
		}
	}
}
