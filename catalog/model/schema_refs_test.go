package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRefPointersAreDecoded: a $ref's fragment is a JSON Pointer, percent-decoded
// first, with ~1 and ~0 standing for / and ~; an anchor or a broken escape is
// refused by name.
func TestRefPointersAreDecoded(t *testing.T) {
	s := mustCompile(t, `{"$defs":{"a/b":{"type":"string"},"x y":{"type":"integer"},"t~n":{"type":"boolean"}},
		"properties":{"p":{"$ref":"#/$defs/a~1b"},"q":{"$ref":"#/$defs/x%20y"},"r":{"$ref":"#/$defs/t~0n"}}}`)
	if got := strings.Join(pointers(t, s, map[string]any{"p": json.Number("1"), "q": "s", "r": json.Number("3")}), " "); got != "/p /q /r" {
		t.Errorf("each member breaks the definition its $ref names: got %q, want /p /q /r", got)
	}
	if got := pointers(t, s, map[string]any{"p": "s", "q": json.Number("1"), "r": true}); len(got) != 0 {
		t.Errorf("values of the referenced definitions: got problems at %v", got)
	}
	for doc, want := range map[string]string{
		`{"$ref":"#anchor"}`:      "only a JSON Pointer fragment",
		`{"$ref":"#/$defs/x%2"}`:  "bad percent escape",
		`{"$ref":"#/$defs/x%zz"}`: "bad percent escape",
		`{"type":"string"} {}`:    "trailing data after the JSON value",
	} {
		if _, err := CompileSchema([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CompileSchema(%s) = %v, want an error saying %q", doc, err, want)
		}
	}
}

// TestSchemaNumbersKeepTheirDigits: a schema's numbers are read as written, not
// as float64, so a const beyond 2^53 tells its neighbour apart.
func TestSchemaNumbersKeepTheirDigits(t *testing.T) {
	s := mustCompile(t, `{"const":9007199254740993}`)
	if got := pointers(t, s, json.Number("9007199254740992")); len(got) != 1 {
		t.Errorf("9007199254740992 against const 9007199254740993: problems %v, want one", got)
	}
	if got := pointers(t, s, json.Number("9007199254740993")); len(got) != 0 {
		t.Errorf("the const itself: problems %v", got)
	}
}
