package model

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func mustCompile(t *testing.T, doc string) *Schema {
	t.Helper()
	s, err := CompileSchema([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pointers(t *testing.T, s *Schema, v any) []string {
	t.Helper()
	ps, err := s.Validate(v)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Pointer)
	}
	return out
}

// TestCompileRefusesWhatItDoesNotKnow: a keyword that changes what validates, outside
// the set the model knows, stops the compile (naming it) instead of being ignored;
// annotations and unknown extension keywords are ignored as Draft 2020-12 ignores them.
func TestCompileRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, k := range []string{`"anyOf":[{}]`, `"not":{}`, `"patternProperties":{"a":{}}`, `"multipleOf":2`,
		`"prefixItems":[{}]`, `"$ref":"https://example.com/s.json"`, `"$ref":"#anchor"`, `"unevaluatedProperties":false`} {
		if _, err := CompileSchema([]byte(`{"type":"object",` + k + `}`)); err == nil {
			t.Errorf("%s compiled", k)
		}
	}
	for _, bad := range []string{`{"minLength":-1}`, `{"type":"text"}`, `{"pattern":"("}`, `{"required":[1]}`, `[]`, `{"items":3}`} {
		if _, err := CompileSchema([]byte(bad)); err == nil {
			t.Errorf("%s compiled", bad)
		}
	}
	s := mustCompile(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","title":"t","format":"email","x-takoform-fieldPolicy":"p","type":"string"}`)
	if got := pointers(t, s, "not an email"); len(got) != 0 {
		t.Errorf("format is an annotation, got %v", got)
	}
}

// TestValidateReportsEachMemberAtFault: a closed object names each unexpected member
// and each missing required member; a wrong type reports only the type.
func TestValidateReportsEachMemberAtFault(t *testing.T) {
	s := mustCompile(t, `{"type":"object","additionalProperties":false,"required":["a","b"],
		"properties":{"a":{"type":"string","maxLength":2,"pattern":"^x"},"b":{"type":"boolean"},"n":{"type":"integer","minimum":1,"maximum":10},
		"l":{"type":"array","items":{"enum":["p","q"]},"uniqueItems":true,"maxItems":2}}}`)
	got := strings.Join(pointers(t, s, map[string]any{"a": "yyy", "z": 1, "n": json.Number("11"), "l": []any{"p", "p", "r"}}), " ")
	if want := "/a /a /b /l /l /l/2 /n /z"; got != want {
		t.Errorf("pointers %q, want %q", got, want)
	}
	if got := pointers(t, s, map[string]any{"a": 7, "b": true}); strings.Join(got, " ") != "/a" {
		t.Errorf("a wrong type reports once: %v", got)
	}
}

// TestNumbersAreValuesWhateverTheirGoType: the provider hands int64, a decoded default
// float64 and json.Number; 3 and 3.0 are the same integer, 2.5 is not an integer.
func TestNumbersAreValuesWhateverTheirGoType(t *testing.T) {
	s := mustCompile(t, `{"type":"integer","minimum":1,"maximum":3}`)
	for _, v := range []any{int64(3), 3.0, json.Number("3"), json.Number("3.0"), json.Number("0.3e1"), uint8(2), int(1)} {
		if got := pointers(t, s, v); len(got) != 0 {
			t.Errorf("%T %v: %v", v, v, got)
		}
	}
	for _, v := range []any{int64(4), 2.5, json.Number("0"), json.Number("9007199254740993"), "3", nil} {
		if got := pointers(t, s, v); len(got) != 1 {
			t.Errorf("%T %v passes", v, v)
		}
	}
	e := mustCompile(t, `{"enum":[1,"a",[1,{"k":2}]]}`)
	for _, v := range []any{1.0, json.Number("1"), "a", []any{int64(1), map[string]any{"k": 2.0}}} {
		if got := pointers(t, e, v); len(got) != 0 {
			t.Errorf("enum %v: %v", v, got)
		}
	}
}

// TestLocalRefsAndCycles: $ref resolves within the document, also into a cycle.
func TestLocalRefsAndCycles(t *testing.T) {
	s := mustCompile(t, `{"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"string","maxLength":1}}}},"$ref":"#/$defs/node"}`)
	deep := map[string]any{"next": map[string]any{"next": map[string]any{"v": "toolong"}}}
	if got := strings.Join(pointers(t, s, deep), " "); got != "/next/next/v" {
		t.Errorf("got %q", got)
	}
	if _, err := CompileSchema([]byte(`{"$ref":"#/$defs/missing"}`)); err == nil {
		t.Error("a $ref to nothing compiled")
	}
}

// TestFormWithoutEngineValidatesWithItsOwnChecks: a Form of a generated model (no
// engine) validates desired specs, fields and outputs itself, as *SchemaError.
func TestFormWithoutEngineValidatesWithItsOwnChecks(t *testing.T) {
	f := &Form{DesiredJSON: []byte(`{"type":"object","additionalProperties":false,"properties":{"size":{"type":"integer","maximum":5},"tags":{"type":"object","maxProperties":1}}}`),
		OutputJSON: []byte(`{"type":"object","required":["url"],"properties":{"url":{"type":"string","pattern":"^https://"}}}`),
		Fields:     []Field{{Wire: "size"}, {Wire: "tags"}}}
	NewCatalog(LaneChoice{}, []*Form{f}, nil, nil, nil)
	var se *SchemaError
	if err := f.ValidateDesired(map[string]any{"size": int64(6)}); !errors.As(err, &se) || se.Problems[0].Pointer != "/size" {
		t.Errorf("desired: %v", err)
	}
	if err := f.ValidateDesired(json.RawMessage(`{"size":5}`)); err != nil {
		t.Errorf("desired: %v", err)
	}
	if err := f.ValidateField("tags", map[string]string{"a": "1", "b": "2"}); !errors.As(err, &se) || se.Problems[0].Pointer != "" {
		t.Errorf("field: %v", err)
	}
	if err := f.ValidateField("nope", 1); err == nil {
		t.Error("an undeclared field validated")
	}
	if err := f.ValidateOutputs(map[string]any{"url": "http://x"}); !errors.As(err, &se) {
		t.Errorf("outputs: %v", err)
	}
	if err := f.ValidateObserved(map[string]any{}); err == nil {
		t.Error("a Form without observedSchema validated an observed document")
	}
}

func TestOutputRegexpIsCompiledOncePerProcess(t *testing.T) {
	a, b := Output{Pattern: "^[a-z]+$"}, Output{Pattern: "^[a-z]+$"}
	if a.Regexp() == nil || a.Regexp() != b.Regexp() || !a.Regexp().MatchString("abc") {
		t.Error("one pattern, one compiled regexp")
	}
	if (&Output{}).Regexp() != nil || (&Output{Pattern: "("}).Regexp() != nil {
		t.Error("no pattern, or a broken one, has no regexp")
	}
}
