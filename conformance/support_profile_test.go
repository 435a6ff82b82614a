package conformance

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// checkFormProfile holds a FormSupport profile to its closed shape and to the
// Definition it names: each rule refuses alone, with its own words, and a
// profile that keeps every rule (a narrowing of the operations included) passes.
func TestFormSupportProfileRules(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var f *model.Form
	var enum *model.Field
	for _, x := range cat.Forms() {
		if len(x.Capabilities) < 2 {
			continue
		}
		for i := range x.Fields {
			if fl := &x.Fields[i]; len(fl.Enum) > 0 {
				f, enum = x, fl
				break
			}
		}
		if f != nil {
			break
		}
	}
	if f == nil {
		t.Fatal("the embedded catalog has no Form with two capabilities and a closed string enum")
	}
	p := &Probe{Cat: cat}
	valid := func() supportProfile {
		ref := f.Ref
		return supportProfile{APIVersion: SupportAPIVersion, Kind: "FormSupport", FormRef: &ref,
			Operations: slices.Clone(f.Capabilities)}
	}
	unknown := f.Ref
	unknown.DefinitionVersion = "9.9.9"
	const shape, unique, order, closed = "a FormSupport profile has apiVersion", "needs unique operations",
		"are not the Definition's lifecycleCapabilities", "which the closed enum"
	for _, c := range []struct {
		name string
		edit func(p *supportProfile)
		want string // "" passes
	}{
		{"valid", func(*supportProfile) {}, ""},
		{"another apiVersion", func(p *supportProfile) { p.APIVersion = "support.takoform.com/v0" }, shape},
		{"another kind", func(p *supportProfile) { p.Kind = "InterfaceSupport" }, shape},
		{"no formRef", func(p *supportProfile) { p.FormRef = nil }, shape},
		{"an interfaceRef too", func(p *supportProfile) { p.InterfaceRef = &wire.InterfaceRef{Name: "edge.kv", Version: "v1alpha1"} }, shape},
		{"a bindingRef too", func(p *supportProfile) { p.BindingRef = &wire.BindingRef{} }, shape},
		{"no operations", func(p *supportProfile) { p.Operations = nil }, unique},
		{"an operation twice", func(p *supportProfile) { p.Operations = append(p.Operations, p.Operations[len(p.Operations)-1]) }, unique},
		{"operations out of order", func(p *supportProfile) { slices.Reverse(p.Operations) }, order},
		{"an operation the Definition lacks", func(p *supportProfile) { p.Operations = append(p.Operations, "teleport") }, order},
		{"a narrowing", func(p *supportProfile) { p.Operations = p.Operations[1:] }, ""},
		{"an enum value inside", func(p *supportProfile) { p.SupportedEnums = map[string][]string{enum.Wire: enum.Enum[:1]} }, ""},
		{"an enum value outside", func(p *supportProfile) {
			p.SupportedEnums = map[string][]string{enum.Wire: {enum.Enum[0], "not-" + enum.Enum[0]}}
		}, closed},
		{"enums of a field the Definition lacks", func(p *supportProfile) { p.SupportedEnums = map[string][]string{"noSuchField": {"x"}} }, ""},
		{"a compatibilityDate range", func(p *supportProfile) {
			p.SupportedRanges = map[string]json.RawMessage{"compatibilityDate": json.RawMessage(`{"minimum":"2024-01-01"}`)}
		}, "supportedRanges.compatibilityDate"},
		{"compatibilityFlags enums", func(p *supportProfile) {
			p.SupportedEnums = map[string][]string{"compatibilityFlags": {"nodejs_compat"}}
		}, "supportedEnums.compatibilityFlags"},
		{"a Form the catalog does not know, its operations unchecked", func(p *supportProfile) {
			p.FormRef = &unknown
			p.Operations = []string{"teleport"}
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			prof := valid()
			c.edit(&prof)
			err := p.checkFormProfile("GET /support/forms", prof)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "GET /support/forms")):
				t.Fatalf("got %v, want a refusal naming the request and saying %q", err, c.want)
			}
		})
	}
}
