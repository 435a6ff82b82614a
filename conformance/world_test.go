package conformance

import (
	"errors"
	"maps"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// TestTargetFormByRequiredInterface: a relation whose target FormRefs the host does
// not install may still be served by an installed Form of its target kind and group
// that provides the relation's required interface, but only when the host claims
// that interface's contract; a Form of the kind that does not provide it, or one of
// another group that does, is never chosen, and with none the relation is not
// applicable (docs/guides/conformance.md).
func TestTargetFormByRequiredInterface(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var provider *catalog.Form
	for _, f := range cat.Forms() {
		if len(f.Provided) > 0 {
			provider = f
			break
		}
	}
	if provider == nil {
		t.Fatal("the embedded catalog has no Form that provides an interface")
	}
	in := provider.Provided[0]
	rel := catalog.Relation{Pointer: "/target", TargetAPIVersion: provider.Ref.APIVersion, TargetKind: provider.Ref.Kind,
		RequiredInterface: &in} // no TargetFormRefs: only the interface can choose
	claimed := map[string]bool{in.Name + "@" + in.Version: true}
	lacking := *provider
	lacking.Provided = nil
	otherGroup := *provider
	otherGroup.Ref.APIVersion = "other.forms.example/v1"
	for _, c := range []struct {
		name       string
		forms      []*catalog.Form
		interfaces map[string]bool
		want       *catalog.Form // nil: not applicable
	}{
		{"provided and claimed", []*catalog.Form{provider}, claimed, provider},
		{"the contract not claimed", []*catalog.Form{provider}, map[string]bool{}, nil},
		{"the kind's Form does not provide it", []*catalog.Form{&lacking}, claimed, nil},
		{"another group provides it", []*catalog.Form{&otherGroup}, claimed, nil},
		{"the providing Form after two that do not fit", []*catalog.Form{&lacking, &otherGroup, provider}, claimed, provider},
	} {
		p := &Probe{S: &Surface{Forms: c.forms, Interfaces: c.interfaces}}
		got, err := p.targetForm(rel)
		var na *NotApplicable
		switch {
		case c.want == nil && !errors.As(err, &na):
			t.Errorf("%s: got %v, %v; want not applicable", c.name, got, err)
		case c.want != nil && (err != nil || got != c.want):
			t.Errorf("%s: got %v, %v; want %s", c.name, got, err, c.want.Ref)
		}
	}
}

// TestClampToRangesAsksOnlyWhatTheHostAdvertises: an integer field is moved into the
// host's supportedRanges for it (up to the minimum, down to the maximum), a value
// inside stays, and a field the spec does not hold as a number is left alone.
func TestClampToRangesAsksOnlyWhatTheHostAdvertises(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f := cat.Forms()[0]
	rng := map[string]map[string]any{
		"low": {"minimum": 10.0, "maximum": 20.0}, "high": {"minimum": 10.0, "maximum": 20.0},
		"inside": {"minimum": 10.0, "maximum": 20.0}, "text": {"minimum": 10.0}, "onlyMax": {"maximum": 3.0},
	}
	p := &Probe{S: &Surface{Profiles: map[wire.FormRef]*formSupport{f.Ref: {SupportedRanges: rng}}}}
	spec := map[string]any{"low": 5.0, "high": 25.0, "inside": 15.0, "text": "5", "onlyMax": 1.0, "unranged": 99.0}
	p.clampToRanges(f, spec)
	want := map[string]any{"low": 10.0, "high": 20.0, "inside": 15.0, "text": "5", "onlyMax": 1.0, "unranged": 99.0}
	if !maps.Equal(want, spec) {
		t.Errorf("clamped spec %v, want %v", spec, want)
	}
	// a host with no support listing: nothing moves
	none := map[string]any{"low": 5.0}
	(&Probe{S: &Surface{}}).clampToRanges(f, none)
	if none["low"] != 5.0 {
		t.Errorf("without profiles low = %v, want 5", none["low"])
	}
}
