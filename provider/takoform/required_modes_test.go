package takoform

import (
	"testing"
)

// TestRequiredFollowsEveryVersion: over every resource type of the embedded
// catalog, a desired attribute is Required exactly when every definition
// version of its kind requires the field, except a bundle's manifestDigest,
// which the provider computes from local files and is Optional and Computed;
// no attribute is both Required and Optional (docs/provider-design.md#desired-fields).
func TestRequiredFollowsEveryVersion(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	required, bundles := 0, 0
	for _, kt := range p.kinds {
		m := kt.model
		if m.bundle != nil {
			bundles++
		}
		for _, f := range m.fields {
			a, ok := kt.schema.Attributes[f.Attr]
			if !ok {
				t.Errorf("%s: no attribute for desired field %s", m.typeName, f.Wire)
				continue
			}
			every := true
			for _, v := range m.kind.Versions {
				if fl, ok := v.Field(f.Wire); !ok || !fl.Required {
					every = false
				}
			}
			computedDigest := m.bundle != nil && f.Wire == "manifestDigest"
			want := every && !computedDigest
			if want {
				required++
			}
			if a.IsRequired() != want || a.IsRequired() && a.IsOptional() {
				t.Errorf("%s.%s: required %v optional %v; want required %v (every version requires it: %v)", m.typeName, f.Attr, a.IsRequired(), a.IsOptional(), want, every)
			}
			if computedDigest && (!a.IsOptional() || !a.IsComputed()) {
				t.Errorf("%s.%s: a bundle's manifest digest is Optional and Computed", m.typeName, f.Attr)
			}
		}
	}
	if required == 0 || bundles == 0 {
		t.Fatalf("the catalog gave %d required attributes and %d bundle kinds: the test measured nothing", required, bundles)
	}
}
