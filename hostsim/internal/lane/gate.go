package lane

import (
	"errors"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// installed resolves an exact FormRef among the Forms this host installs.
func (c *call) installed(ref wire.FormRef) (*catalog.Form, *apiError) {
	f, ok := c.s.Host.Form(ref)
	if !ok {
		f, ok = c.looseForm(ref)
	}
	if !ok {
		return nil, fail(wire.CodeFormUnknown, "Form %s is not installed on this host (profile %q); read GET %s/support/forms for what it serves",
			ref, c.s.Host.P.Name, APIRoot)
	}
	return f, nil
}

// gated is a spec that passed the spec gate (host-api.md §10.1).
type gated struct {
	form   *catalog.Form
	spec   map[string]any // materialized
	jcs    []byte         // canonical bytes of spec
	digest string         // specDigest
}

// diagnostic is one validate finding.
type diagnostic struct {
	Severity string `json:"severity"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message"`
}

// specGate is host-api.md §10.1: materialize defaults and canonicalize hostname
// fields, validate against the installed desiredSchema, then parse cron fields
// and check hostnames (fields recognized by their schema pattern, rules.FieldSemantic).
func specGate(f *catalog.Form, spec map[string]any) (*gated, []diagnostic, error) {
	m := f.Materialize(spec)
	rules.CanonicalizeSpec(f, m)
	if err := f.ValidateDesired(m); err != nil {
		var se *catalog.SchemaError
		if errors.As(err, &se) {
			var ds []diagnostic
			for _, p := range se.Problems {
				if len(ds) == 256 {
					break
				}
				ds = append(ds, diagnostic{Severity: "error", Field: p.Pointer,
					Message: clip(fmt.Sprintf("%s: %s", pointerText(p.Pointer), p.Message))})
			}
			if len(ds) == 0 {
				ds = append(ds, diagnostic{Severity: "error", Message: clip(err.Error())})
			}
			return nil, ds, nil
		}
		return nil, []diagnostic{{Severity: "error", Message: clip(err.Error())}}, nil
	}
	if _, r := rules.CheckSemanticFields(f, m); r != nil {
		return nil, []diagnostic{{Severity: "error", Field: r.Pointer, Message: clip(r.Message)}}, nil
	}
	b, err := wire.CanonicalValue(m)
	if err != nil {
		return nil, nil, err
	}
	return &gated{form: f, spec: m, jcs: b, digest: wire.RawDigest(b)}, nil, nil
}

// gateOrRefuse is the spec gate of prepare, apply and import: invalid_argument.
func gateOrRefuse(f *catalog.Form, spec map[string]any) (*gated, *apiError) {
	g, ds, err := specGate(f, spec)
	if err != nil {
		return nil, internal(err)
	}
	if len(ds) > 0 {
		e := invalid("spec does not satisfy the desiredSchema of %s %s: %s", f.Ref.Kind, f.Ref.DefinitionVersion, ds[0].Message)
		if ds[0].Field != "" {
			e.at(ds[0].Field)
		}
		return nil, e
	}
	return g, nil
}

func pointerText(p string) string {
	if p == "" {
		return "spec"
	}
	return "spec" + p
}

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}
