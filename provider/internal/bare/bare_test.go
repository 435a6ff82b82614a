package bare

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/takokit/takokit/catalog/embedded"
	"github.com/takokit/takokit/provider/takoform"
)

// TestBareServesTheSameSchemas: the yardstick is only fair if OpenTofu sees the same
// resource types with the same attributes, types, modes and descriptions from both
// providers (the schema answer is the same size), and a
// create fills every computed value (one condition element, as a host answers).
func TestBareServesTheSameSchemas(t *testing.T) {
	real, err := takoform.New("test", embedded.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	f, err := Capture(context.Background(), real)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(f) // what the benchmark writes and the bare process reads
	var back File
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	factory, err := New(takoform.TypeName, &back)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Capture(context.Background(), factory)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Resources) != len(f.Resources) || len(again.Resources) == 0 {
		t.Fatalf("bare serves %d resource types, takoform %d", len(again.Resources), len(f.Resources))
	}
	if got, want := mustJSON(again.Provider), mustJSON(f.Provider); got != want || len(f.Provider) == 0 {
		t.Errorf("bare provider block differs:\n got %s\nwant %s", got, want)
	}
	for name, attrs := range f.Resources {
		got, _ := json.Marshal(again.Resources[name])
		want, _ := json.Marshal(attrs)
		if string(got) != string(want) {
			t.Errorf("%s: bare schema differs:\n got %s\nwant %s", name, got, want)
		}
	}
	described := 0
	for name, d := range f.Descriptions {
		if d == "" || again.Descriptions[name] != d {
			t.Errorf("%s: resource description %q served as %q", name, d, again.Descriptions[name])
		}
		for _, a := range f.Resources[name] {
			if a.Description != "" {
				described++
			}
		}
	}
	if len(f.Descriptions) != len(f.Resources) || described == 0 || f.ProviderDescription == "" || again.ProviderDescription != f.ProviderDescription {
		t.Errorf("descriptions were not captured and served: %d of %d resources, %d attributes, provider %q/%q",
			len(f.Descriptions), len(f.Resources), described, f.ProviderDescription, again.ProviderDescription)
	}
	typ := tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"type": tftypes.String, "status": tftypes.String}}}
	filled := fill(tftypes.NewValue(typ, tftypes.UnknownValue))
	var elems []tftypes.Value
	if err := filled.As(&elems); err != nil || len(elems) != 1 || !filled.IsFullyKnown() {
		t.Errorf("an unknown list of objects fills to %v, want one known element", filled)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
