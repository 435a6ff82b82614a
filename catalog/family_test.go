package catalog

import (
	"slices"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// ownFamily is what the project's family of one lane holds (docs/catalog-rules.md#family).
type ownFamily struct {
	kinds, relations int
	typeNames        map[string]string // kind -> resource type, where it is not derived from the slug
	maturity         string            // the family listing's formMaturity; "" without a listing
}

var ownFamilies = map[*wire.Lane]ownFamily{
	wire.V1beta1:  {kinds: 15, relations: 18, typeNames: map[string]string{"ObjectBucket": "takoform_edge_object_bucket"}, maturity: "experimental"},
	wire.V1alpha3: {kinds: 12, relations: 15},
}

// eachOwnFamily runs f once per lane on the project's family of that lane.
func eachOwnFamily(t *testing.T, f func(t *testing.T, c *Catalog, want ownFamily)) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			c, err := EmbeddedLane(lane)
			if err != nil {
				t.Fatal(err)
			}
			f(t, c, ownFamilies[lane])
		})
	}
}

// TestEmbeddedLifecycleLists checks the derived lifecycle list of every kind of the
// project's families: exactly these declare update.
func TestEmbeddedLifecycleLists(t *testing.T) {
	withUpdate := []string{"WorkerDeployment", "WorkerCronTrigger", "AtLeastOnceQueue", "QueueConsumer"}
	base := []string{"create", "read", "delete", "import", "observe"}
	update := []string{"create", "read", "update", "delete", "import", "observe"}
	eachOwnFamily(t, func(t *testing.T, c *Catalog, fam ownFamily) {
		if len(c.Kinds()) != fam.kinds {
			t.Errorf("the project's family has %d kinds, want %d", len(c.Kinds()), fam.kinds)
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
	})
}

// TestEmbeddedFamilyShape checks the derived model facts the other modules rely on.
func TestEmbeddedFamilyShape(t *testing.T) {
	eachOwnFamily(t, func(t *testing.T, c *Catalog, fam ownFamily) {
		if n := countRelations(c); n != fam.relations {
			t.Errorf("the family has %d relations, want %d", n, fam.relations)
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
			want, ok := fam.typeNames[k.Kind]
			if !ok {
				want = TypeName(k.Slug)
			}
			if k.TypeName != want {
				t.Errorf("%s: type name %s, want %s", k.Kind, k.TypeName, want)
			}
			for _, f := range k.Versions {
				if f.TypeName != k.TypeName || f.Maturity != fam.maturity {
					t.Errorf("%s: type name %s maturity %q, want the kind's %s and %q", f.Ref, f.TypeName, f.Maturity, k.TypeName, fam.maturity)
				}
			}
		}
	})
}
