package conformance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

func i64(n int64) *int64 { return &n }

// TestOutputValueProblem pins every declared constraint at its boundary: a value
// exactly at a bound is valid, one past it is not.
func TestOutputValueProblem(t *testing.T) {
	str := catalog.Output{Wire: "s", Type: "string", MinLength: i64(2), MaxLength: i64(4), Pattern: `^[a-zé]+$`, Enum: []string{"ab", "abcd", "éé", "abcde", "a"}}
	num := catalog.Output{Wire: "n", Type: "integer", Min: i64(-2), Max: i64(10), Enum: []string{"-2", "3", "10", "11", "-3"}}
	free := catalog.Output{Wire: "f", Type: "integer"}
	flag := catalog.Output{Wire: "b", Type: "boolean"}
	cases := []struct {
		o    catalog.Output
		v    string
		want string // "" = valid
	}{
		{str, `"ab"`, ""},
		{str, `"abcd"`, ""},
		{str, `"éé"`, ""}, // two characters, four bytes
		{str, `"a"`, "outside the declared length"},
		{str, `"abcde"`, "outside the declared length"},
		{str, `"AB"`, "does not match the declared pattern"},
		{str, `"abc"`, "is not one of"},
		{str, `3`, "declared string"},
		{num, `-2`, ""},
		{num, `10`, ""},
		{num, `3`, ""},
		{num, `-3`, "outside the declared bounds"},
		{num, `11`, "outside the declared bounds"},
		{num, `4`, "is not one of"},
		{num, `2.5`, "declared integer"},
		{num, `"3"`, "declared integer"},
		{free, `-9007199254740991`, ""},
		{flag, `true`, ""},
		{flag, `"true"`, "declared boolean"},
		{flag, `{`, "does not decode"},
	}
	for _, c := range cases {
		got := outputValueProblem(c.o, json.RawMessage(c.v))
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s %s: %q, want %q", c.o.Wire, c.v, got, c.want)
		}
	}
}

func TestOutputsNullIsNotAnObject(t *testing.T) {
	f, _ := outputsForm(t)
	r := &Resource{}
	r.Status.Outputs = json.RawMessage("null")
	if msg := outputsProblem(f, r); !strings.Contains(msg, "not an object") {
		t.Fatalf("status.outputs null: %q, want \"not an object\"", msg)
	}
}
