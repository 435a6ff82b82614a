package wire

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckIJSONAccepts(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `0`, `-1`, `1.5`, `1e400000`[:0] + `1e300`, `"a\u00e9\ud83d\ude00"`, ` {"a": [1, 2, {"b": null}]} `,
		`{"a":"\"\\\/\b\f\n\r\t"}`, `true`, `false`, `null`, `1E-5`, `0.0`, `1e-400`, "{\"\u20ac\":1}",
		`{"a":1,"\u0062":2}`,
	} {
		if err := CheckIJSON([]byte(in)); err != nil {
			t.Errorf("CheckIJSON(%s) = %v, want accepted", in, err)
		}
	}
}

func TestCheckIJSONRefuses(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	for _, tc := range []struct{ name, in, ptr, frag string }{
		{"duplicate member", `{"a":1,"a":2}`, "/a", "duplicate member"},
		{"duplicate after unescaping", `{"a":1,"\u0061":2}`, "/a", "duplicate member"},
		{"nested duplicate", `{"x":[{"k":1,"k":1}]}`, "/x/0/k", "duplicate member"},
		{"invalid utf-8", "{\"a\":\"\xff\"}", "", "not valid UTF-8"},
		{"lone high surrogate", `{"s":"\ud800"}`, "/s", "lone high surrogate"},
		{"lone low surrogate", `["\udc00"]`, "/0", "lone low surrogate"},
		{"high then non-low", `"\ud800\u0041"`, "", "lone high surrogate"},
		{"high then one past the low range", `"\ud800\ue000"`, "", "lone high surrogate"},
		{"leading zero", `{"n":01}`, "/n", "leading zero"},
		{"minus then a letter", `[-a]`, "/0", "a digit must follow '-'"},
		{"minus then a sign", `[-+1]`, "/0", "a digit must follow '-'"},
		{"plus sign", `[+1]`, "/0", "unexpected character"},
		{"negative zero", `{"n":-0}`, "/n", "negative zero"},
		{"negative zero fraction", `[-0.0]`, "/0", "negative zero"},
		{"negative zero exponent", `[-0e7]`, "/0", "negative zero"},
		{"negative underflow", `[-1e-400]`, "/0", "negative zero"},
		{"infinite", `{"n":1e400}`, "/n", "not a finite binary64"},
		{"trailing value", `{} {}`, "", "trailing data"},
		{"trailing byte", `1x`, "", "trailing data"},
		{"raw control", "\"a\tb\"", "", "raw control character"},
		{"bad escape", `"\x"`, "", "invalid escape"},
		{"too deep", deep, "", "nested containers"},
		{"empty", ``, "", "unexpected end"},
		{"unterminated", `{"a":`, "/a", "unexpected end"},
		{"escaped key pointer", `{"a/b":{"c":1,"c":2}}`, "/a~1b/c", "duplicate member"},
	} {
		err := CheckIJSON([]byte(tc.in))
		var je *JSONError
		if !errors.As(err, &je) {
			t.Errorf("%s: CheckIJSON(%q) = %v, want a *JSONError", tc.name, tc.in, err)
			continue
		}
		if je.Pointer != tc.ptr && !(tc.name == "too deep" && strings.HasPrefix(je.Pointer, "/0/0")) {
			t.Errorf("%s: pointer %q, want %q", tc.name, je.Pointer, tc.ptr)
		}
		if !strings.Contains(je.Message, tc.frag) {
			t.Errorf("%s: message %q does not contain %q", tc.name, je.Message, tc.frag)
		}
	}
}

func TestCheckIJSONDepthLimitIsExact(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if err := CheckIJSON([]byte(ok)); err != nil {
		t.Errorf("%d nested arrays refused: %v", MaxDepth, err)
	}
	objects := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n))
	}
	if err := CheckIJSON(objects(MaxDepth)); err != nil {
		t.Errorf("%d nested objects refused: %v", MaxDepth, err)
	}
	if err := CheckIJSON(objects(MaxDepth + 1)); err == nil {
		t.Errorf("%d nested objects accepted", MaxDepth+1)
	}
}

// CheckIJSONButDuplicates lets repeated member names through and nothing else.
func TestCheckIJSONButDuplicatesRefusesAllElse(t *testing.T) {
	if err := CheckIJSONButDuplicates([]byte(`{"a":1,"a":2,"\u0061":3}`)); err != nil {
		t.Errorf("duplicates refused: %v", err)
	}
	for _, in := range []string{`{"a":1,"a":-0}`, `{"a":1,"a":"\ud800"}`, `{"a":1,"a":2} x`} {
		if err := CheckIJSONButDuplicates([]byte(in)); err == nil {
			t.Errorf("CheckIJSONButDuplicates(%s) accepted", in)
		}
	}
}

type strictInner struct {
	Name string `json:"name,required"`
	Size int    `json:"size"`
}

type strictOuter struct {
	Kind  string                 `json:"kind,required"`
	Items []strictInner          `json:"items"`
	ByKey map[string]strictInner `json:"byKey"`
	Free  map[string]any         `json:"free"`
}

func TestDecodeStrict(t *testing.T) {
	var ok strictOuter
	if err := DecodeStrict([]byte(`{"kind":"k","items":[{"name":"a","size":1}],"free":{"x":{"y":1}}}`), &ok); err != nil {
		t.Fatalf("valid document refused: %v", err)
	}
	if ok.Kind != "k" || len(ok.Items) != 1 || ok.Items[0].Size != 1 {
		t.Errorf("decoded %+v", ok)
	}
	for _, tc := range []struct{ in, ptr, frag string }{
		{`{"kind":"k","extra":1}`, "/extra", `unknown member "extra"`},
		{`{"kind":"k","Kind":"x"}`, "/Kind", `unknown member "Kind"`},
		{`{"kind":"k","items":[{"name":"a"},{"name":"b","color":1}]}`, "/items/1/color", "unknown member"},
		{`{"kind":"k","byKey":{"q/r":{"nam":"a"}}}`, "/byKey/q~1r/nam", "unknown member"},
		{`{"items":[]}`, "", `required member "kind" is missing`},
		{`{"kind":"k","items":[{}]}`, "/items/0", `required member "name" is missing`},
		{`{"kind":1}`, "/kind", "found a JSON number where a string is required"},
		{`{"kind":"k","items":[{"name":"a"},"b"]}`, "/items/1", "found a JSON string where an object is required"},
		{`{"kind":"k","items":[{"name":"a"},{"name":"b","size":"2"}]}`, "/items/1/size", "found a JSON string where an integer is required"},
		{`{"kind":"k","items":[{"name":"a"},{"name":["b"]}]}`, "/items/1/name", "found a JSON array where a string is required"},
		{`{"kind":"k","byKey":{"q/r":{"name":{}}}}`, "/byKey/q~1r/name", "found a JSON object where a string is required"},
		{`{"free":{"a":[1,{"b":2}]},"kind":{"x":[1]}}`, "/kind", "found a JSON object where a string is required"},
		{`["k"]`, "", "found a JSON array where an object is required"},
		{`{"kind":"k","kind":"k"}`, "/kind", "duplicate member"},
	} {
		var v strictOuter
		err := DecodeStrict([]byte(tc.in), &v)
		if err == nil {
			t.Errorf("DecodeStrict(%s) accepted", tc.in)
			continue
		}
		found := false
		var se *StrictError
		var je *JSONError
		switch {
		case errors.As(err, &se):
			for _, p := range se.Problems {
				found = found || (p.Pointer == tc.ptr && strings.Contains(p.Message, tc.frag))
			}
		case errors.As(err, &je):
			found = je.Pointer == tc.ptr && strings.Contains(je.Message, tc.frag)
		}
		if !found {
			t.Errorf("DecodeStrict(%s) = %v; want pointer %q with %q", tc.in, err, tc.ptr, tc.frag)
		}
	}
}

func TestDecodeStrictReportsAllUnknownMembers(t *testing.T) {
	var v strictOuter
	err := DecodeStrict([]byte(`{"kind":"k","b":1,"a":2}`), &v)
	var se *StrictError
	if !errors.As(err, &se) || len(se.Problems) != 2 || se.Problems[0].Pointer != "/a" || se.Problems[1].Pointer != "/b" {
		t.Fatalf("want two sorted problems /a and /b, got %v", err)
	}
}
