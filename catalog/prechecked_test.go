package catalog

import (
	"io/fs"
	"os"
	"reflect"
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
