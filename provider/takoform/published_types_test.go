package takoform

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// TestResourceTypesAreThePublishedNames: the provider over the embedded catalog and
// the provider over the published v1beta1 family (what `go tool mage provider:family`
// builds) both serve exactly the resource types the published family listing names,
// all 15 of them, and both speak v1beta1; the published v1alpha3 family still builds a
// provider of its own lane with its own names.
func TestResourceTypesAreThePublishedNames(t *testing.T) {
	t.Parallel()
	dir := reftest.Lane(t, wire.V1beta1)
	var listing struct {
		Forms []struct {
			ResourceType string `json:"resourceType"`
		} `json:"forms"`
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "forms", "*", "candidate-set.json"))
	if len(matches) != 1 {
		t.Fatalf("want one family listing in %s, found %v", dir, matches)
	}
	readJSON(t, matches[0], &listing)
	var want []string
	for _, f := range listing.Forms {
		if !slices.Contains(want, f.ResourceType) {
			want = append(want, f.ResourceType)
		}
	}
	slices.Sort(want)
	if len(want) != 15 || !slices.Contains(want, "takoform_edge_object_bucket") {
		t.Fatalf("the published listing names %d types: %v", len(want), want)
	}
	published, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*Provider{"embedded": testProvider(t), "published family": mustProvider(t, published)} {
		if got := typeNames(p); !slices.Equal(got, want) {
			t.Errorf("%s provider serves %v\nwant %v", name, got, want)
		}
		if p.lane != wire.V1beta1 {
			t.Errorf("%s provider speaks %s", name, p.lane)
		}
	}
	old, err := catalog.Load(os.DirFS(reftest.Lane(t, wire.V1alpha3)))
	if err != nil {
		t.Fatal(err)
	}
	p := mustProvider(t, old)
	if got := typeNames(p); p.lane != wire.V1alpha3 || len(got) != 12 || !slices.Contains(got, "takoform_object_bucket") {
		t.Errorf("the v1alpha3 family provider speaks %s and serves %v", p.lane, got)
	}
}

func typeNames(p *Provider) []string {
	var out []string
	for _, kt := range p.kinds {
		out = append(out, kt.model.typeName)
	}
	slices.Sort(out)
	return out
}
