package model

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// SchemaError lists every leaf failure of a schema validation, each naming the
// instance JSON Pointer ("" for the document itself).
type SchemaError struct {
	What     string // "desired spec", "outputs", ...
	Form     string // the FormRef in words
	Problems []SchemaProblem
}

// SchemaProblem is one failed keyword at one instance location.
type SchemaProblem struct {
	Pointer string
	Message string
}

func (e *SchemaError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = quotePtr(p.Pointer) + ": " + p.Message
	}
	return fmt.Sprintf("%s does not match %s: %s", e.What, e.Form, strings.Join(parts, "; "))
}

// SchemaValidator validates instances against one Form's schemas with a JSON Schema
// engine. Package catalog's loader gives one to every Form it builds (SetSchemas), so
// the modules that load a catalog (hostsim, conformance) validate exactly as that engine
// does. A Form without one — a model generated at build time for a provider binary,
// which links no engine — validates desired specs, outputs and fields with its own
// compiled checks (Schema), held to the engine's verdicts by catalog's differential test.
type SchemaValidator interface {
	ValidateDesired(spec any) error
	ValidateOutputs(out any) error
	ValidateObserved(obs any) error
	ValidateField(wireName string, value any) error
}

// SetSchemas gives the Form the JSON Schema engine its loader compiled; only the loader
// calls it, before the catalog is shared.
func (f *Form) SetSchemas(v SchemaValidator) { f.schemas = v }

// Schemas returns the engine SetSchemas gave the Form, nil when it validates with its
// own checks.
func (f *Form) Schemas() SchemaValidator { return f.schemas }

// ValidateDesired validates a desired spec (any JSON-encodable value) against the
// desiredSchema. Errors are *SchemaError naming each instance pointer.
func (f *Form) ValidateDesired(spec any) error {
	if f.schemas != nil {
		return f.schemas.ValidateDesired(spec)
	}
	return f.validateNative(&f.nativeSet().desired, f.DesiredJSON, spec, "desired spec")
}

// ValidateOutputs validates an outputs object against the outputSchema. A Form without
// outputs accepts only nil or an empty object.
func (f *Form) ValidateOutputs(out any) error {
	if f.schemas != nil {
		return f.schemas.ValidateOutputs(out)
	}
	if f.OutputJSON == nil {
		return f.NoOutputs(out)
	}
	return f.validateNative(&f.nativeSet().output, f.OutputJSON, out, "outputs")
}

// NoOutputs is ValidateOutputs of a Form that declares no outputs: nil or an empty
// object passes, anything else fails.
func (f *Form) NoOutputs(out any) error {
	v, err := genericJSON(out)
	if err != nil {
		return err
	}
	if m, ok := v.(map[string]any); v == nil || (ok && len(m) == 0) {
		return nil
	}
	return fmt.Errorf("%s %s declares no outputs; a host must return none", f.Ref.Kind, f.Ref.DefinitionVersion)
}

// ValidateObserved validates a status.observed object when the Form declares one.
func (f *Form) ValidateObserved(obs any) error {
	if f.schemas != nil {
		return f.schemas.ValidateObserved(obs)
	}
	if f.ObservedJSON == nil {
		return fmt.Errorf("%s %s declares no observedSchema", f.Ref.Kind, f.Ref.DefinitionVersion)
	}
	return f.validateNative(&f.nativeSet().observed, f.ObservedJSON, obs, "observed status")
}

// ValidateField validates one top-level desired value against that property's own
// subschema (its $refs resolve within the desiredSchema), e.g. a json-map value
// before the whole spec is known. Problem pointers are relative to the value.
func (f *Form) ValidateField(wireName string, value any) error {
	if f.schemas != nil {
		return f.schemas.ValidateField(wireName, value)
	}
	if _, ok := f.Field(wireName); !ok {
		return fmt.Errorf("%s %s has no desired property %q", f.Ref.Kind, f.Ref.DefinitionVersion, wireName)
	}
	ns := f.nativeSet()
	if s, ok := ns.fields.Load(wireName); ok {
		return f.problems(s.(*Schema), value, "desired property "+strconv.Quote(wireName))
	}
	doc, err := ns.desired.get(f.DesiredJSON)
	if err != nil {
		return fmt.Errorf("%s: desiredSchema: %w", f.Ref, err)
	}
	s := doc.Property(wireName)
	if s == nil {
		return fmt.Errorf("%s %s has no desired property %q", f.Ref.Kind, f.Ref.DefinitionVersion, wireName)
	}
	ns.fields.Store(wireName, s)
	return f.problems(s, value, "desired property "+strconv.Quote(wireName))
}

// DesiredChecks returns the Form's own compiled desiredSchema (Schema), whatever
// engine the Form validates with: the differential test compares the two.
func (f *Form) DesiredChecks() (*Schema, error) { return f.nativeSet().desired.get(f.DesiredJSON) }

// OutputChecks is DesiredChecks for the outputSchema (nil, nil without outputs).
func (f *Form) OutputChecks() (*Schema, error) {
	if f.OutputJSON == nil {
		return nil, nil
	}
	return f.nativeSet().output.get(f.OutputJSON)
}

func (f *Form) nativeSet() *nativeSchemas {
	if f.native == nil { // a Form not assembled by NewCatalog: compile on every call
		return &nativeSchemas{}
	}
	return f.native
}

func (f *Form) validateNative(l *lazyNative, raw []byte, v any, what string) error {
	s, err := l.get(raw)
	if err != nil {
		return fmt.Errorf("%s of %s cannot be validated: %w", what, f.Ref, err)
	}
	return f.problems(s, v, what)
}

func (f *Form) problems(s *Schema, v any, what string) error {
	ps, err := s.Validate(v)
	if err != nil {
		return fmt.Errorf("%s is not JSON: %w", what, err)
	}
	if len(ps) == 0 {
		return nil
	}
	return &SchemaError{What: what, Form: f.Ref.String(), Problems: ps}
}

// lazyNative is one schema document compiled on first use.
type lazyNative struct {
	once sync.Once
	s    *Schema
	err  error
}

func (l *lazyNative) get(raw []byte) (*Schema, error) {
	l.once.Do(func() { l.s, l.err = CompileSchema(raw) })
	return l.s, l.err
}

// Materialize returns a shallow copy of spec with the default of every absent
// top-level optional property filled in (docs/provider-design.md#lifecycle). Defaults are decoded from
// their authored bytes with encoding/json (numbers as float64, like a spec decoded by
// json.Unmarshal), so each call returns fresh values. A nil spec materializes as {}.
func (f *Form) Materialize(spec map[string]any) map[string]any {
	out := make(map[string]any, len(spec)+len(f.Fields))
	for k, v := range spec {
		out[k] = v
	}
	for _, fl := range f.Fields {
		if fl.Default == nil {
			continue
		}
		if _, ok := out[fl.Wire]; ok {
			continue
		}
		var v any
		if err := json.Unmarshal(fl.Default, &v); err == nil {
			out[fl.Wire] = v
		}
	}
	return out
}
