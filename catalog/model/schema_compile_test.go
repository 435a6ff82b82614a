package model

import (
	"strings"
	"testing"
)

// TestCompileNamesTheKeywordAtFault: a malformed keyword value stops the compile with
// an error at that keyword's pointer saying what the value must be; the document
// itself is named "" and a nested subschema by its own pointer.
func TestCompileNamesTheKeywordAtFault(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{`, "schema is not JSON"},
		{``, "schema is not JSON: EOF"},
		{`tru`, "schema is not JSON"},
		{`3`, `"": a schema is an object or a boolean`},
		{`{"properties":{"a":3}}`, `/properties/a: a schema is an object or a boolean`},
		{`{"enum":1}`, `/enum: enum is an array`},
		{`{"pattern":1}`, `/pattern: pattern is a string`},
		{`{"minimum":"1"}`, `/minimum: minimum is a number`},
		{`{"exclusiveMaximum":true}`, `/exclusiveMaximum: exclusiveMaximum is a number`},
		{`{"uniqueItems":1}`, `/uniqueItems: uniqueItems is a boolean`},
		{`{"required":"a"}`, `/required: required lists member names`},
		{`{"properties":[]}`, `/properties: properties maps member names to schemas`},
		{`{"properties":{"a":{"type":"text"}}}`, `/properties/a/type: "text" is not a JSON Schema type`},
		{`{"type":[1]}`, `/type: type lists type names`},
		{`{"type":1}`, `/type: type is a type name or a list of them`},
		{`{"minLength":"3"}`, `/minLength: must be a non-negative integer`},
		{`{"minLength":1.5}`, `/minLength: must be a non-negative integer`},
		{`{"minLength":-1}`, `/minLength: must be a non-negative integer`},
		{`{"maxItems":2147483649}`, `/maxItems: must be a non-negative integer`},
		{`{"maxItems":4294967296}`, `/maxItems: must be a non-negative integer`},
		{`{"$ref":"https://example.com/s.json"}`, `/$ref: only a reference within the same document`},
		{`{"$ref":5}`, `/$ref: only a reference within the same document`},
		{`{"$defs":{"l":[{"type":"string"}]},"$ref":"#/$defs/l/1"}`, `/$defs/l/1: no schema at this location`},
		{`{"$defs":{"l":[{"type":"string"}]},"$ref":"#/$defs/l/-1"}`, `/$defs/l/-1: no schema at this location`},
		{`{"$defs":{"l":[{"type":"string"}]},"$ref":"#/$defs/l/x"}`, `/$defs/l/x: no schema at this location`},
	} {
		_, err := CompileSchema([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CompileSchema(%s) = %v, want an error saying %q", c.doc, err, c.want)
		}
	}
	for _, ok := range []string{`{"minLength":0}`, `{"maxItems":2147483648}`, `{"enum":[]}`} {
		if _, err := CompileSchema([]byte(ok)); err != nil {
			t.Errorf("CompileSchema(%s): %v", ok, err)
		}
	}
}

// TestRefPointersWalkArrays: a $ref's pointer steps into an array by index.
func TestRefPointersWalkArrays(t *testing.T) {
	s := mustCompile(t, `{"$defs":{"l":[{"type":"string"},{"type":"integer"}]},
		"properties":{"a":{"$ref":"#/$defs/l/0"},"b":{"$ref":"#/$defs/l/1"}}}`)
	for _, c := range []struct {
		v    map[string]any
		want string
	}{
		{map[string]any{"a": "x", "b": 1}, ""},
		{map[string]any{"a": 1, "b": "x"}, "/a: got number, want string; /b: got string, want integer"},
	} {
		if got := strings.Join(problems(t, s, c.v), "; "); got != c.want {
			t.Errorf("%v: got %q, want %q", c.v, got, c.want)
		}
	}
}

// TestFalseSchemasAndClosedObjects: the schema false refuses every value, and a
// member a closed object does not declare is refused as such, by name.
func TestFalseSchemasAndClosedObjects(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"gone":false,"l":{"type":"array"}},"additionalProperties":false}`)
	for _, c := range []struct {
		v    map[string]any
		want string
	}{
		{map[string]any{"gone": 1}, "/gone: no value is allowed here"},
		{map[string]any{"z": 1}, `/z: member "z" is not allowed here; the object is closed, so remove it`},
		{map[string]any{"l": []any{1, 1}}, ""}, // no uniqueItems: equal entries are fine
	} {
		if got := strings.Join(problems(t, s, c.v), "; "); got != c.want {
			t.Errorf("%v: got %q, want %q", c.v, got, c.want)
		}
	}
}

// TestSchemaErrorNamesTheDocumentAsQuotes: a problem with the document itself is
// reported at "", one inside it at its own pointer.
func TestSchemaErrorNamesTheDocumentAsQuotes(t *testing.T) {
	e := &SchemaError{What: "outputs", Form: "X", Problems: []SchemaProblem{{"", "got string, want object"}, {"/a", "m"}}}
	if got, want := e.Error(), `outputs does not match X: "": got string, want object; /a: m`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if (*Schema)(nil).Property("a") != nil || (&Schema{}).Property("a") != nil {
		t.Error("a missing schema has no property")
	}
}
