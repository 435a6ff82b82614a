package model

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestAssembledFormsCompileTheirChecksOnce: NewCatalog gives each Form one compiled
// schema set, kept when the same Form is assembled again; a Form never assembled still
// validates, compiling as it goes.
func TestAssembledFormsCompileTheirChecksOnce(t *testing.T) {
	f := &Form{DesiredJSON: []byte(`{"type":"object"}`)}
	NewCatalog(LaneChoice{}, []*Form{f}, nil, nil, nil)
	s1, err := f.DesiredChecks()
	if err != nil {
		t.Fatal(err)
	}
	if s2, _ := f.DesiredChecks(); s2 != s1 {
		t.Error("an assembled Form compiled its desiredSchema twice")
	}
	NewCatalog(LaneChoice{}, []*Form{f}, nil, nil, nil)
	if s3, _ := f.DesiredChecks(); s3 != s1 {
		t.Error("assembling the Form again threw its compiled desiredSchema away")
	}
	loose := &Form{DesiredJSON: []byte(`{"type":"object"}`)}
	if err := loose.ValidateDesired("x"); err == nil {
		t.Error("a Form never assembled accepted a string as its desired spec")
	}
}

// TestNativeValidationNamesWhatItCannotDo: without an engine, a schema that does not
// compile, a value that is not JSON, a field the Form does not declare and a declared
// field its schema lacks are each refused, saying which; an observed document is
// checked against the observedSchema.
func TestNativeValidationNamesWhatItCannotDo(t *testing.T) {
	broken := &Form{DesiredJSON: []byte(`{"type":"text"}`), OutputJSON: []byte(`{"enum":1}`), Fields: []Field{{Wire: "a"}}}
	f := &Form{DesiredJSON: []byte(`{"type":"object","properties":{"a":{"type":"string"},"hidden":{"type":"string"}}}`),
		ObservedJSON: []byte(`{"type":"object","properties":{"phase":{"enum":["up"]}}}`),
		Fields:       []Field{{Wire: "a"}, {Wire: "ghost"}}}
	NewCatalog(LaneChoice{}, []*Form{broken, f}, nil, nil, nil)
	for _, c := range []struct {
		what string
		err  error
		want string
	}{
		{"a broken desiredSchema", broken.ValidateDesired(map[string]any{}), "desired spec of"},
		{"a broken outputSchema", broken.ValidateOutputs(map[string]any{}), "outputs of"},
		{"a field of a broken desiredSchema", broken.ValidateField("a", "x"), "desiredSchema: "},
		{"NaN", f.ValidateDesired(math.NaN()), "desired spec is not JSON"},
		{"NaN for no outputs", f.ValidateOutputs(math.NaN()), "not JSON"},
		{"an undeclared field", f.ValidateField("hidden", "x"), `has no desired property "hidden"`},
		{"a field the schema lacks", f.ValidateField("ghost", "x"), `has no desired property "ghost"`},
		{"a bad observed phase", f.ValidateObserved(map[string]any{"phase": "down"}), `observed status does not match`},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.what, c.err, c.want)
		}
	}
	if err := f.ValidateObserved(map[string]any{"phase": "up"}); err != nil {
		t.Errorf("a good observed document: %v", err)
	}
	var se *SchemaError
	if err := f.ValidateField("a", 1); !errors.As(err, &se) || se.Problems[0].Pointer != "" {
		t.Errorf("a number for a string field: %v", err)
	}
}
