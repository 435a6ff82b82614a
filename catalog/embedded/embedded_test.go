package embedded_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/embedded"
	"github.com/takokit/takokit/catalog/internal/modelgen"
)

// TestGeneratedModelIsCurrent: model_gen.go is what the generator writes for the
// embedded catalog as it is now; a change to catalog/data without
// `go tool mage catalog:model` fails here.
func TestGeneratedModelIsCurrent(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	want, err := modelgen.Generate(cat, "embedded")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("model_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("catalog/embedded/model_gen.go is stale: the embedded catalog changed since it was written; run `go tool mage catalog:model`")
	}
}

// TestGeneratedModelIsTheLoadedModel: the compiled literals give back every exported
// value of the checked load (written out again, they are the same source), the same
// kinds and lookups, and Forms that validate with their own checks.
func TestGeneratedModelIsTheLoadedModel(t *testing.T) {
	loaded, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	gen := embedded.Catalog()
	if gen != embedded.Catalog() {
		t.Fatal("Catalog must return one catalog")
	}
	a, err := modelgen.Generate(loaded, "x")
	if err != nil {
		t.Fatal(err)
	}
	b, err := modelgen.Generate(gen, "x")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("the generated model differs from the loaded one")
	}
	if len(gen.Kinds()) != len(loaded.Kinds()) {
		t.Fatalf("%d kinds, the load has %d", len(gen.Kinds()), len(loaded.Kinds()))
	}
	for i, k := range loaded.Kinds() {
		g := gen.Kinds()[i]
		if g.APIVersion != k.APIVersion || g.Kind != k.Kind || g.TypeName != k.TypeName || len(g.Versions) != len(k.Versions) {
			t.Errorf("kind %d: %s/%s, the load has %s/%s", i, g.APIVersion, g.Kind, k.APIVersion, k.Kind)
		}
	}
	for _, f := range loaded.Forms() {
		g, ok := gen.Form(f.Ref)
		if !ok {
			t.Fatalf("%s is missing", f.Ref)
		}
		if g.Schemas() != nil {
			t.Fatalf("%s carries a JSON Schema engine; a generated Form validates with its own checks", f.Ref)
		}
		for _, fx := range g.Fixtures {
			if err := g.ValidateDesired(fx.Desired); err != nil {
				t.Errorf("%s fixture %s: %v", f.Ref, fx.Name, err)
			}
		}
		for _, nf := range g.NegativeFixtures {
			if nf.Stage == "desired" && g.ValidateDesired(nf.Input) == nil {
				t.Errorf("%s negative fixture %s passes", f.Ref, nf.Name)
			}
		}
	}
}
