package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/takokit/takokit/catalog/wire"
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
		ptr := p.Pointer
		if ptr == "" {
			ptr = `""`
		}
		parts[i] = ptr + ": " + p.Message
	}
	return fmt.Sprintf("%s does not match %s: %s", e.What, e.Form, strings.Join(parts, "; "))
}

// ValidateDesired validates a desired spec (any JSON-encodable value) against the
// compiled desiredSchema. Errors are *SchemaError naming each instance pointer.
func (f *Form) ValidateDesired(spec any) error {
	return validateWith(f.desired.get(), spec, "desired spec", f)
}

// ValidateOutputs validates an outputs object against the compiled outputSchema. A Form
// without outputs accepts only nil or an empty object.
func (f *Form) ValidateOutputs(out any) error {
	if f.output == nil {
		v, err := toSchemaValue(out)
		if err != nil {
			return err
		}
		if m, ok := v.(map[string]any); v == nil || (ok && len(m) == 0) {
			return nil
		}
		return fmt.Errorf("%s %s declares no outputs; a host must return none", f.Ref.Kind, f.Ref.DefinitionVersion)
	}
	return validateWith(f.output.get(), out, "outputs", f)
}

// ValidateField validates one top-level desired value against that property's own
// subschema (its $refs resolve within the desiredSchema), e.g. a json-map value
// before the whole spec is known. Problem pointers are relative to the value.
func (f *Form) ValidateField(wireName string, value any) error {
	if _, ok := f.Field(wireName); !ok {
		return fmt.Errorf("%s %s has no desired property %q", f.Ref.Kind, f.Ref.DefinitionVersion, wireName)
	}
	s, err := f.propertySchema(wireName)
	if err != nil {
		return err
	}
	return validateWith(s, value, "desired property "+strconv.Quote(wireName), f)
}

// DesiredSchema returns the compiled desiredSchema.
func (f *Form) DesiredSchema() *jsonschema.Schema { return f.desired.get() }

// OutputSchema returns the compiled outputSchema, or nil when the Form has no outputs.
func (f *Form) OutputSchema() *jsonschema.Schema { return f.output.get() }

// ValidateObserved validates a status.observed object when the Form declares one.
func (f *Form) ValidateObserved(obs any) error {
	if f.observed == nil {
		return fmt.Errorf("%s %s declares no observedSchema", f.Ref.Kind, f.Ref.DefinitionVersion)
	}
	return validateWith(f.observed.get(), obs, "observed status", f)
}

func validateWith(s *jsonschema.Schema, v any, what string, f *Form) error {
	if s == nil {
		return fmt.Errorf("%s of %s cannot be validated: the schema is not compiled (the Form was not built by catalog.Load)", what, f.Ref)
	}
	inst, err := toSchemaValue(v)
	if err != nil {
		return fmt.Errorf("%s is not JSON: %w", what, err)
	}
	err = s.Validate(inst)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	return &SchemaError{What: what, Form: f.Ref.String(), Problems: leafProblems(verr)}
}

func leafProblems(verr *jsonschema.ValidationError) []SchemaProblem {
	var out []SchemaProblem
	seen := map[string]bool{}
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			for _, p := range problemsOf(u) {
				key := p.Pointer + "\x00" + p.Message
				if !seen[key] {
					seen[key] = true
					out = append(out, p)
				}
			}
		}
		for _, c := range u.Errors {
			walk(c)
		}
	}
	walk(*verr.BasicOutput())
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// problemsOf names the member at fault where the keyword is about members: an
// unexpected member and a missing required member each get their own pointer, which
// is what a host reports as the field at fault.
func problemsOf(u jsonschema.OutputUnit) []SchemaProblem {
	switch k := u.Error.Kind.(type) {
	case *kind.AdditionalProperties:
		out := make([]SchemaProblem, len(k.Properties))
		for i, name := range k.Properties {
			out[i] = SchemaProblem{Pointer: u.InstanceLocation + "/" + wire.EscapePointerToken(name),
				Message: fmt.Sprintf("member %q is not allowed here; the object is closed, so remove it", name)}
		}
		return out
	case *kind.Required:
		out := make([]SchemaProblem, len(k.Missing))
		for i, name := range k.Missing {
			out[i] = SchemaProblem{Pointer: u.InstanceLocation + "/" + wire.EscapePointerToken(name),
				Message: fmt.Sprintf("required member %q is missing; add it", name)}
		}
		return out
	}
	return []SchemaProblem{{Pointer: u.InstanceLocation, Message: u.Error.String()}}
}

// toSchemaValue turns any JSON-encodable Go value into the generic form the schema
// validator expects (numbers as json.Number).
func toSchemaValue(v any) (any, error) {
	var raw []byte
	switch t := v.(type) {
	case json.RawMessage:
		raw = t
	case []byte:
		raw = t
	default:
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
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
