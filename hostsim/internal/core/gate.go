package core

import (
	"errors"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// Gated is a spec that passed the spec gate (docs/protocol.md#prepare).
type Gated struct {
	Form   *catalog.Form
	Spec   map[string]any // materialized
	JCS    []byte         // canonical bytes of Spec
	Digest string         // specDigest
}

// Diagnostic is one validate finding.
type Diagnostic struct {
	Severity string `json:"severity"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message"`
}

// Gate is the spec gate of validate, prepare, apply and import: materialize
// defaults and canonicalize hostname fields, validate against the installed
// desiredSchema, then parse cron fields and check hostnames (fields
// recognized by their schema pattern, rules.FieldSemantic). A spec that fails
// yields diagnostics, never an error; err is a hostsim failure.
func Gate(f *catalog.Form, spec map[string]any) (*Gated, []Diagnostic, error) {
	m := f.Materialize(spec)
	rules.CanonicalizeSpec(f, m)
	if err := f.ValidateDesired(m); err != nil {
		var se *catalog.SchemaError
		if errors.As(err, &se) {
			var ds []Diagnostic
			for _, p := range se.Problems {
				if len(ds) == 256 {
					break
				}
				ds = append(ds, Diagnostic{Severity: "error", Field: p.Pointer,
					Message: clip(fmt.Sprintf("%s: %s", pointerText(p.Pointer), p.Message))})
			}
			if len(ds) == 0 {
				ds = append(ds, Diagnostic{Severity: "error", Message: clip(err.Error())})
			}
			return nil, ds, nil
		}
		return nil, []Diagnostic{{Severity: "error", Message: clip(err.Error())}}, nil
	}
	if _, r := rules.CheckSemanticFields(f, m); r != nil {
		return nil, []Diagnostic{{Severity: "error", Field: r.Pointer, Message: clip(r.Message)}}, nil
	}
	b, err := wire.CanonicalValue(m)
	if err != nil {
		return nil, nil, err
	}
	return &Gated{Form: f, Spec: m, JCS: b, Digest: wire.RawDigest(b)}, nil, nil
}

// GateOrRefuse is the gate of prepare, apply and import: the first
// diagnostic becomes an invalid_argument naming its field.
func GateOrRefuse(f *catalog.Form, spec map[string]any) (*Gated, *wire.Error) {
	g, ds, err := Gate(f, spec)
	if err != nil {
		return nil, Internal(err)
	}
	if len(ds) > 0 {
		e := Invalid("spec does not satisfy the desiredSchema of %s %s: %s", f.Ref.Kind, f.Ref.DefinitionVersion, ds[0].Message)
		return nil, AtField(e, ds[0].Field)
	}
	return g, nil
}

// Ungated materializes and canonicalizes spec without validating it (the
// fault import.unchecked).
func Ungated(f *catalog.Form, spec map[string]any) (*Gated, *wire.Error) {
	m := f.Materialize(spec)
	b, err := wire.CanonicalValue(m)
	if err != nil {
		return nil, Invalid("spec cannot be canonicalized: %v", err)
	}
	return &Gated{Form: f, Spec: m, JCS: b, Digest: wire.RawDigest(b)}, nil
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
