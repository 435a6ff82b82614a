package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/takokit/takokit/catalog/wire"
)

// formSchemas is the JSON Schema engine of one Form: its compiled desired, output and
// observed schemas, and the subschemas ValidateField compiles. The loader gives it to
// the Form (model.Form.SetSchemas), so every catalog it loads validates with the engine.
type formSchemas struct {
	form                      *Form
	desired, output, observed *lazySchema
	mu                        sync.Mutex
	fields                    map[string]*jsonschema.Schema
}

func (s *formSchemas) ValidateDesired(spec any) error {
	return validateLazy(s.desired, spec, "desired spec", s.form)
}

func (s *formSchemas) ValidateOutputs(out any) error {
	if s.output == nil {
		return s.form.NoOutputs(out)
	}
	return validateLazy(s.output, out, "outputs", s.form)
}

func (s *formSchemas) ValidateField(wireName string, value any) error {
	if _, ok := s.form.Field(wireName); !ok {
		return fmt.Errorf("%s %s has no desired property %q", s.form.Ref.Kind, s.form.Ref.DefinitionVersion, wireName)
	}
	sch, err := s.propertySchema(wireName)
	if err != nil {
		return err
	}
	return validateWith(sch, value, "desired property "+strconv.Quote(wireName), s.form)
}

func (s *formSchemas) ValidateObserved(obs any) error {
	if s.observed == nil {
		return fmt.Errorf("%s %s declares no observedSchema", s.form.Ref.Kind, s.form.Ref.DefinitionVersion)
	}
	return validateLazy(s.observed, obs, "observed status", s.form)
}

// engineOf is the engine the loader gave f (nil for a Form it did not build).
func engineOf(f *Form) *formSchemas {
	s, _ := f.Schemas().(*formSchemas)
	return s
}

// validateLazy validates v against one of the Form's schema documents. Only a
// prechecked load meets one that does not compile: Load refuses such a catalog,
// and LoadPrechecked takes only a catalog Load accepts (it compiles on first use).
func validateLazy(l *lazySchema, v any, what string, f *Form) error {
	s, _, prob := l.compile()
	if prob != nil {
		return notCompiled(what, f, prob)
	}
	return validateWith(s, v, what, f)
}

func notCompiled(what string, f *Form, prob *Problem) error {
	return fmt.Errorf("%s of %s cannot be validated: %s; this catalog was loaded with LoadPrechecked, which takes only a catalog that catalog.Load accepts (load it with catalog.Load to see every problem)", what, f.Ref, prob)
}

func validateWith(s *jsonschema.Schema, v any, what string, f *Form) error {
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
	// Validate's error wraps the whole schema's failure (kind.Schema) around at
	// least one cause; its basic output is flat, listing every failing unit
	// beneath, each with its own error and none nested.
	var out []SchemaProblem
	seen := map[SchemaProblem]bool{}
	for _, u := range verr.BasicOutput().Errors {
		for _, p := range problemsOf(u) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pointer < out[j].Pointer })
	return out
}

// problemsOf names the member at fault where the keyword is about members: an
// unexpected member and a missing required member each get their own pointer, which
// is what a host reports as the field at fault.
func problemsOf(u jsonschema.OutputUnit) []SchemaProblem {
	switch k := u.Error.Kind.(type) {
	case *kind.Group: // "validation failed": its causes are listed in their own units
		return nil
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
