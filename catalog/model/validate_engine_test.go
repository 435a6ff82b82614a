package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// engine is a SchemaValidator that answers every call with its own error and
// records what it was asked.
type engine struct{ asked []string }

var errEngine = errors.New("the engine's verdict")

func (e *engine) ValidateDesired(any) error  { e.asked = append(e.asked, "desired"); return errEngine }
func (e *engine) ValidateOutputs(any) error  { e.asked = append(e.asked, "outputs"); return errEngine }
func (e *engine) ValidateObserved(any) error { e.asked = append(e.asked, "observed"); return errEngine }
func (e *engine) ValidateField(w string, _ any) error {
	e.asked = append(e.asked, "field "+w)
	return errEngine
}

// TestFormWithAnEngineValidatesThroughIt: a Form the loader gave an engine asks
// it for every verdict — desired, outputs, observed and a field — even where its
// own checks would answer (no outputs, no observedSchema, an undeclared field).
func TestFormWithAnEngineValidatesThroughIt(t *testing.T) {
	f := &Form{DesiredJSON: []byte(`{"type":"object"}`), Fields: []Field{{Wire: "size"}}}
	NewCatalog(LaneChoice{}, []*Form{f}, nil, nil, nil)
	e := &engine{}
	f.SetSchemas(e)
	for name, err := range map[string]error{
		"desired":  f.ValidateDesired(map[string]any{}),
		"outputs":  f.ValidateOutputs(nil),
		"observed": f.ValidateObserved(map[string]any{}),
		"field":    f.ValidateField("nope", 1),
	} {
		if !errors.Is(err, errEngine) {
			t.Errorf("%s: %v, want the engine's verdict", name, err)
		}
	}
	if got := strings.Join(e.asked, ","); len(e.asked) != 4 || !strings.Contains(got, "field nope") {
		t.Errorf("the engine was asked %q, want desired, outputs, observed and field nope", got)
	}
}

// TestFormWithoutOutputsOrObservedSchema: without an engine, a Form with no
// outputSchema accepts only no outputs, and one with no observedSchema refuses
// an observed document naming what it lacks.
func TestFormWithoutOutputsOrObservedSchema(t *testing.T) {
	f := &Form{Ref: wire.FormRef{Kind: "Gadget", DefinitionVersion: "0.1.0"}, DesiredJSON: []byte(`{"type":"object"}`)}
	NewCatalog(LaneChoice{}, []*Form{f}, nil, nil, nil)
	if err := f.ValidateOutputs(map[string]any{}); err != nil {
		t.Errorf("an empty outputs object: %v", err)
	}
	if err := f.ValidateOutputs(map[string]any{"url": "x"}); err == nil || !strings.Contains(err.Error(), "declares no outputs") {
		t.Errorf("outputs from a Form without outputs: %v", err)
	}
	if c, err := f.OutputChecks(); c != nil || err != nil {
		t.Errorf("OutputChecks without outputs = %v, %v; want nil, nil", c, err)
	}
	if err := f.ValidateObserved(map[string]any{}); err == nil || !strings.Contains(err.Error(), "Gadget 0.1.0 declares no observedSchema") {
		t.Errorf("observed without observedSchema: %v", err)
	}
}
