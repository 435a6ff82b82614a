package model

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// problems validates v and returns "pointer: message" lines in the order reported.
func problems(t *testing.T, s *Schema, v any) []string {
	t.Helper()
	ps, err := s.Validate(v)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Pointer+": "+p.Message)
	}
	return out
}

// TestBoundsAreWhereTheSchemaPutsThem: every bound the model's checks know decides at
// its own edge (inclusive minimum/maximum and lengths and counts, exclusive
// exclusiveMinimum/exclusiveMaximum), and each stands alone when it is the only one
// the property declares.
func TestBoundsAreWhereTheSchemaPutsThem(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"props":{"type":"object","minProperties":1,"maxProperties":2},
		"arr":{"type":"array","minItems":1,"maxItems":2},
		"short":{"type":"string","minLength":2},
		"long":{"type":"string","maxLength":2},
		"low":{"type":"number","minimum":1},
		"high":{"type":"number","maximum":10},
		"open":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":10},
		"above":{"type":"number","exclusiveMinimum":0},
		"below":{"type":"number","exclusiveMaximum":10}}}`)
	for _, c := range []struct {
		member string
		value  any
		want   string // "" = valid
	}{
		{"props", map[string]any{}, "/props: 0 members; at least 1 are required"},
		{"props", map[string]any{"a": 1}, ""},
		{"props", map[string]any{"a": 1, "b": 2}, ""},
		{"props", map[string]any{"a": 1, "b": 2, "c": 3}, "/props: 3 members; at most 2 are allowed"},
		{"arr", []any{}, "/arr: 0 entries; at least 1 are required"},
		{"arr", []any{1, 2}, ""},
		{"arr", []any{1, 2, 3}, "/arr: 3 entries; at most 2 are allowed"},
		{"short", "a", "/short: 1 characters; at least 2 are required"},
		{"short", "ab", ""},
		{"long", "ab", ""},
		{"long", "abc", "/long: 3 characters; at most 2 are allowed"},
		{"low", json.Number("1"), ""},
		{"low", json.Number("0.5"), "/low: 1/2 is less than the minimum 1"},
		{"high", json.Number("10"), ""},
		{"high", json.Number("10.5"), "/high: 21/2 is more than the maximum 10"},
		{"open", json.Number("0"), "/open: 0 is not more than 0"},
		{"open", json.Number("0.1"), ""},
		{"open", json.Number("9.9"), ""},
		{"open", json.Number("10"), "/open: 10 is not less than 10"},
		{"above", json.Number("0"), "/above: 0 is not more than 0"},
		{"above", json.Number("0.1"), ""},
		{"below", json.Number("9.9"), ""},
		{"below", json.Number("10"), "/below: 10 is not less than 10"},
	} {
		got := strings.Join(problems(t, s, map[string]any{c.member: c.value}), "; ")
		if got != c.want {
			t.Errorf("%s = %v: got %q, want %q", c.member, c.value, got, c.want)
		}
	}
}

// TestProblemsAtOnePointerKeepTheirOrderAndAreNotRepeated: problems are sorted by
// pointer; two at the same pointer keep the order the checks found them in (length,
// then pattern), and a constraint reached twice (through $ref and beside it) is
// reported once.
func TestProblemsAtOnePointerKeepTheirOrderAndAreNotRepeated(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"b":{"type":"string","minLength":3,"pattern":"^x"},"a":{"type":"string","maxLength":1}}}`)
	got := strings.Join(problems(t, s, map[string]any{"a": "aa", "b": "y"}), "; ")
	want := `/a: 2 characters; at most 1 are allowed; /b: 1 characters; at least 3 are required; /b: "y" does not match the pattern ^x`
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	twice := mustCompile(t, `{"$defs":{"s":{"maxLength":1}},"$ref":"#/$defs/s","maxLength":1}`)
	if got := problems(t, twice, "abc"); len(got) != 1 || got[0] != ": 3 characters; at most 1 are allowed" {
		t.Errorf("a constraint reached twice: %q, want it once", got)
	}
}

// TestConstAndEnumCompareJSONValues: const and enum compare JSON values — null,
// booleans, numbers by value whatever their Go type — and messages show the allowed
// values as JSON.
func TestConstAndEnumCompareJSONValues(t *testing.T) {
	s := mustCompile(t, `{"enum":[null,true,1,"fast"]}`)
	for _, ok := range []any{nil, true, json.Number("1"), 1.0, int64(1), json.Number("1.0"), "fast"} {
		if got := problems(t, s, ok); len(got) != 0 {
			t.Errorf("%#v is in the enum, got %v", ok, got)
		}
	}
	for _, bad := range []any{false, json.Number("2"), 2.0, "1", "slow", map[string]any{}} {
		got := problems(t, s, bad)
		if len(got) != 1 || got[0] != `: value must be one of null, true, 1, "fast"` {
			t.Errorf("%#v: got %v, want the enum refusal", bad, got)
		}
	}
	noNull := mustCompile(t, `{"enum":[1,"x",false]}`)
	if got := problems(t, noNull, nil); len(got) != 1 || got[0] != `: value must be one of 1, "x", false` {
		t.Errorf("null against an enum without null: %v, want the enum refusal", got)
	}
	null := mustCompile(t, `{"const":null}`)
	if got := problems(t, null, nil); len(got) != 0 {
		t.Errorf("const null against null: %v", got)
	}
	if got := problems(t, null, false); len(got) != 1 || got[0] != ": value must be null" {
		t.Errorf("const null against false: %v", got)
	}
	for _, c := range []struct{ schema, value string }{
		{`{"const":[]}`, `"x"`}, {`{"const":[]}`, `{}`}, {`{"const":[1]}`, `[1,2]`}, {`{"const":[1,2]}`, `[1]`},
		{`{"const":{}}`, `[]`}, {`{"const":{}}`, `"x"`}, {`{"const":{"a":1}}`, `{"a":1,"b":2}`}, {`{"const":{"a":1,"b":2}}`, `{"a":1}`},
		// same length, same members, another value: equal only member by member
		{`{"const":[1]}`, `[2]`}, {`{"const":{"a":1}}`, `{"a":2}`}, {`{"const":{"a":1}}`, `{"b":1}`},
		{`{"const":{"a":{"b":[1]}}}`, `{"a":{"b":[1.5]}}`},
	} {
		var v any
		if err := json.Unmarshal([]byte(c.value), &v); err != nil {
			t.Fatal(err)
		}
		if got := problems(t, mustCompile(t, c.schema), v); len(got) != 1 {
			t.Errorf("%s against %s: %v, want one refusal (arrays and objects are equal only with the same length, members and values)", c.schema, c.value, got)
		}
	}
	c := mustCompile(t, `{"const":false}`)
	if got := problems(t, c, true); len(got) != 1 || got[0] != ": value must be false" {
		t.Errorf("const false against true: %v", got)
	}
	if got := problems(t, c, false); len(got) != 0 {
		t.Errorf("const false against false: %v", got)
	}
}

// TestNonFiniteNumbersAreNotJSON: NaN and the infinities have no JSON spelling, so a
// value holding one is refused as not JSON rather than checked.
func TestNonFiniteNumbersAreNotJSON(t *testing.T) {
	s := mustCompile(t, `{"type":"number","maximum":1}`)
	for _, v := range []any{math.NaN(), math.Inf(1), []any{math.Inf(-1)}, float32(math.NaN()), map[string]any{"a": float32(math.Inf(1))}} {
		if _, err := s.Validate(v); err == nil {
			t.Errorf("%v validated", v)
		}
	}
}

// TestFloatsAreTheNumbersJSONSpells: a float64 or float32 (a default decoded by
// json.Unmarshal, a provider's number) is the number its JSON spelling names, as the
// engine sees it once encoded: 0.1 is at the maximum 0.1 and equal to the const 0.1,
// not the binary fraction just above it.
func TestFloatsAreTheNumbersJSONSpells(t *testing.T) {
	for _, c := range []struct {
		schema string
		value  any
	}{
		{`{"maximum":0.1}`, 0.1}, {`{"const":0.1}`, 0.1}, {`{"enum":[0.3]}`, float32(0.3)},
		{`{"minimum":0.7}`, float32(0.7)}, {`{"type":"object","properties":{"a":{"maximum":0.1}}}`, map[string]any{"a": 0.1}},
	} {
		if got := problems(t, mustCompile(t, c.schema), c.value); len(got) != 0 {
			t.Errorf("%T %v against %s: %v", c.value, c.value, c.schema, got)
		}
	}
	if got := problems(t, mustCompile(t, `{"maximum":0.1}`), 0.1000001); len(got) != 1 {
		t.Errorf("0.1000001 against the maximum 0.1: %v, want one problem", got)
	}
	if got := problems(t, mustCompile(t, `{"type":"integer"}`), float32(2.5)); len(got) != 1 {
		t.Errorf("float32 2.5 is an integer: %v", got)
	}
}

// TestValuesAreCheckedAsTheirJSON: a value is checked as encoding/json spells it, as
// the engine reads it: a byte that is not UTF-8 (in a string or a member name) is
// U+FFFD, and a Go slice or map inside a decoded map is the array or object it encodes.
func TestValuesAreCheckedAsTheirJSON(t *testing.T) {
	for _, c := range []struct {
		schema string
		value  any
		want   string
	}{
		{`{"const":"\ufffd"}`, "\xff", ""},
		{`{"type":"object","properties":{"\ufffd":{}},"additionalProperties":false}`, map[string]any{"\xff": 1}, ""},
		{`{"type":"object","properties":{"a":{"type":"array","maxItems":1}}}`, map[string]any{"a": []string{"x"}}, ""},
		{`{"type":"object","properties":{"a":{"type":"array","maxItems":1}}}`, map[string]any{"a": []string{"x", "y"}}, "/a: 2 entries; at most 1 are allowed"},
		{`{"type":"array","items":{"type":"object"}}`, []any{map[string]string{"k": "v"}}, ""},
	} {
		if got := strings.Join(problems(t, mustCompile(t, c.schema), c.value), "; "); got != c.want {
			t.Errorf("%#v against %s: got %q, want %q", c.value, c.schema, got, c.want)
		}
	}
}

// TestRatOfRefusesWhatJSONCannotSpell: NaN and the infinities, of either float size,
// are no number (their spellings NaN, +Inf and -Inf are refused by big.Rat), with no
// test of their own in ratOf.
func TestRatOfRefusesWhatJSONCannotSpell(t *testing.T) {
	for _, v := range []any{math.NaN(), math.Inf(1), math.Inf(-1), float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		if r, ok := ratOf(v); ok || r != nil {
			t.Errorf("ratOf(%T %v) = %v, %v; want no number", v, v, r, ok)
		}
	}
	if r, ok := ratOf(float32(0.5)); !ok || r.RatString() != "1/2" {
		t.Errorf("ratOf(float32 0.5) = %v, %v; want 1/2", r, ok)
	}
}
