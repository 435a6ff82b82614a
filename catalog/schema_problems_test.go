package catalog

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A schema refusal lists each problem once, at the member it is about (its
// name escaped as a JSON Pointer token), in pointer order; a field the Form
// lacks and an observed status of a Form without an observedSchema are
// refused by name.
func TestSchemaProblemsAreExactAndNamed(t *testing.T) {
	k, _ := loadGood(t).Kind(tGroup, "Gadget")
	f := k.DefaultCreate()
	err := f.ValidateDesired(map[string]any{"size": 3, "extra": true, "a/b~c": true})
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("want *SchemaError, got %v", err)
	}
	want := []SchemaProblem{
		{Pointer: "/a~1b~0c", Message: `member "a/b~c" is not allowed here; the object is closed, so remove it`},
		{Pointer: "/extra", Message: `member "extra" is not allowed here; the object is closed, so remove it`},
		{Pointer: "/holder", Message: `required member "holder" is missing; add it`},
	}
	if !reflect.DeepEqual(se.Problems, want) {
		t.Errorf("problems = %q\nwant       %q", se.Problems, want)
	}
	if err := f.ValidateField("nope", 1); err == nil || err.Error() != `Gadget 0.2.0 has no desired property "nope"` {
		t.Errorf("a field Gadget lacks: %v", err)
	}
	if err := f.ValidateObserved(map[string]any{}); err == nil || err.Error() != "Gadget 0.2.0 declares no observedSchema" {
		t.Errorf("an observed status of a Form without an observedSchema: %v", err)
	}
}

// A published operation table is read as I-JSON like every catalog document:
// a member given twice is refused, naming the file, not read as the last one.
func TestOperationTableMustBeIJSON(t *testing.T) {
	files := baseCatalog().seal(t)
	files["operations-v1alpha3.json"] = []byte(`{"format": "takoform.host-api@v1alpha3", "format": "takoform.host-api@v1alpha3"}`)
	if _, err := Load(mapFS(files)); err == nil || !strings.Contains(err.Error(), "catalog: operations-v1alpha3.json") {
		t.Errorf("an operation table with a duplicated member: %v", err)
	}
}

func TestSchemaProblemsNameTheMember(t *testing.T) {
	k, _ := loadGood(t).Kind(tGroup, "Gadget")
	err := k.DefaultCreate().ValidateDesired(map[string]any{"size": 3, "extra": true})
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("want *SchemaError, got %v", err)
	}
	got := map[string]string{}
	for _, p := range se.Problems {
		got[p.Pointer] = p.Message
	}
	if !strings.Contains(got["/extra"], "not allowed") || !strings.Contains(got["/holder"], "missing") {
		t.Errorf("problems = %v; want /extra not allowed and /holder missing", got)
	}
}

// TestSchemaProblemsOfNestedSchemas: a refusal from deep in a schema (a branch
// of anyOf) lists every failing keyword at its instance pointer, in pointer
// order, a problem two branches share once, and no line for a group of
// problems whose members are listed ("validation failed"). A required
// member's name is escaped like an unexpected one's.
func TestSchemaProblemsOfNestedSchemas(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"type": "object", "required": ["a/b"], "properties": {
		"z": {"type": "string"},
		"y": {"anyOf": [{"type": "object", "required": ["k"]}, {"type": "object", "required": ["k"], "minProperties": 1}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("nested.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("nested.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		instance string
		want     []SchemaProblem
	}{
		{`{"z": 1, "y": {}}`, []SchemaProblem{
			{Pointer: "/a~1b", Message: `required member "a/b" is missing; add it`},
			{Pointer: "/y", Message: "'anyOf' failed"},
			{Pointer: "/y", Message: "minProperties: got 0, want 1"},
			{Pointer: "/y/k", Message: `required member "k" is missing; add it`},
			{Pointer: "/z", Message: "got number, want string"},
		}},
		{`5`, []SchemaProblem{{Pointer: "", Message: "got number, want object"}}},
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.instance))
		if err != nil {
			t.Fatal(err)
		}
		var verr *jsonschema.ValidationError
		if !errors.As(s.Validate(inst), &verr) {
			t.Fatalf("%s: not refused", tc.instance)
		}
		if got := leafProblems(verr); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: problems\n%q\nwant\n%q", tc.instance, got, tc.want)
		}
	}
}
