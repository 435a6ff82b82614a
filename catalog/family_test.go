package catalog

import (
	"slices"
	"testing"
)

// TestEmbeddedLifecycleLists checks the derived lifecycle list of every kind of the
// project's family (docs/catalog-rules.md#family): exactly these declare update.
func TestEmbeddedLifecycleLists(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	withUpdate := []string{"WorkerDeployment", "WorkerCronTrigger", "AtLeastOnceQueue", "QueueConsumer"}
	base := []string{"create", "read", "delete", "import", "observe"}
	update := []string{"create", "read", "update", "delete", "import", "observe"}
	if len(c.Kinds()) != 12 {
		t.Errorf("the project's family has %d kinds, want 12", len(c.Kinds()))
	}
	for _, k := range c.Kinds() {
		want := base
		if slices.Contains(withUpdate, k.Kind) {
			want = update
		}
		for _, f := range k.Versions {
			if !slices.Equal(f.Capabilities, want) || f.DeclaresUpdate != slices.Contains(want, "update") {
				t.Errorf("%s: capabilities %v, want %v", f.Ref, f.Capabilities, want)
			}
		}
	}
}

// TestEmbeddedFamilyShape checks the derived model facts the other modules rely on.
func TestEmbeddedFamilyShape(t *testing.T) {
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if n := countRelations(c); n != 15 {
		t.Errorf("the family has %d relations, want 15", n)
	}
	if len(c.Interfaces()) != 6 || len(c.Bindings()) != 5 || len(c.Transitions()) != 2 {
		t.Errorf("interfaces %d bindings %d transitions %d; want 6, 5, 2", len(c.Interfaces()), len(c.Bindings()), len(c.Transitions()))
	}
	for _, tr := range c.Transitions() {
		k, ok := c.Kind(tr.From.APIVersion, tr.From.Kind)
		if !ok || k.DefaultCreate().Ref != tr.To || k.Versions[0].Ref != tr.From {
			t.Errorf("transition %s must go from the oldest to the default create ref", tr.Marker)
		}
	}
	for _, k := range c.Kinds() {
		if k.TypeName != TypeName(k.Slug) {
			t.Errorf("%s: type name %s", k.Kind, k.TypeName)
		}
	}
}
