package decide

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
	return (*GateMemo)(nil).Gate(f, spec, nil)
}

// Gate is the spec gate (decide.Gate) answered from the memo when f passed
// this spec's canonical bytes before; a nil memo remembers nothing.
// A fault of the gate (a) that lets a spec through keeps it out of the memo.
func (gm *GateMemo) Gate(f *catalog.Form, spec map[string]any, a *Acts) (*Gated, []Diagnostic, error) {
	m := f.Materialize(spec)
	laxed := canonicalize(f, m, a)
	b, cerr := wire.CanonicalValue(m)
	var digest string
	if cerr == nil {
		digest = wire.RawDigest(b)
		if gm.passed(f, digest) {
			return &Gated{Form: f, Spec: m, JCS: b, Digest: digest}, nil, nil
		}
	}
	ds, lax := check(f, m, a)
	if ds != nil {
		return nil, ds, nil
	}
	if cerr != nil {
		return nil, nil, cerr
	}
	if !laxed && !lax {
		gm.pass(f, digest)
	}
	return &Gated{Form: f, Spec: m, JCS: b, Digest: digest}, nil, nil
}

// check validates a materialized spec against f's desiredSchema, then its
// semantic fields: the diagnostics of the first that fails, or nil; lax is set
// when a fault let the spec through.
func check(f *catalog.Form, m map[string]any, a *Acts) (ds []Diagnostic, lax bool) {
	schemaView := m
	if open := withinVocabulary(f, m); open != nil {
		if a.On(HandlersOpenVocabulary) {
			schemaView, lax = open, true
		}
	}
	if err := f.ValidateDesired(schemaView); err != nil {
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
			return ds, lax
		}
		return []Diagnostic{{Severity: "error", Message: clip(err.Error())}}, lax
	}
	if _, r := rules.CheckSemanticFieldsLax(f, m, CronLax(a, &lax)); r != nil {
		return []Diagnostic{{Severity: "error", Field: r.Pointer, Message: clip(r.Message)}}, lax
	}
	return nil, lax
}

// GateOrRefuse is the gate of prepare, apply and import: the first
// diagnostic becomes an invalid_argument naming its field.
func GateOrRefuse(f *catalog.Form, spec map[string]any) (*Gated, *wire.Error) {
	return (*GateMemo)(nil).GateOrRefuse(f, spec, nil)
}

// GateOrRefuse is decide.GateOrRefuse answered from the memo when it can.
func (gm *GateMemo) GateOrRefuse(f *catalog.Form, spec map[string]any, a *Acts) (*Gated, *wire.Error) {
	g, ds, err := gm.Gate(f, spec, a)
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

// pointerText names the field at p in a message: "spec" for the whole spec
// (p is ""), "spec/worker" for a member.
func pointerText(p string) string { return "spec" + p }

func clip(s string) string {
	if len(s) > 4000 {
		return s[:4000] + "…"
	}
	return s
}
