package takoform

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/provider/internal/lazyre"
)

// shown renders diagnostics as "path: summary: detail" lines, for cmp.Diff.
func shown(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		p := ""
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			p = wp.Path().String()
		}
		out = append(out, fmt.Sprintf("%s: %s: %s", p, d.Summary(), d.Detail()))
	}
	return out
}

func validateString(c check, v string) []string {
	var r validator.StringResponse
	c.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("a"), ConfigValue: types.StringValue(v)}, &r)
	return shown(r.Diagnostics)
}

func validateList(c check, v types.List) []string {
	var r validator.ListResponse
	c.ValidateList(context.Background(), validator.ListRequest{Path: path.Root("a"), ConfigValue: v}, &r)
	return shown(r.Diagnostics)
}

func validateSet(c check, v types.Set) []string {
	var r validator.SetResponse
	c.ValidateSet(context.Background(), validator.SetRequest{Path: path.Root("a"), ConfigValue: v}, &r)
	return shown(r.Diagnostics)
}

func stringValues(vs ...string) []attr.Value {
	out := make([]attr.Value, len(vs))
	for i, v := range vs {
		out[i] = types.StringValue(v)
	}
	return out
}

// TestStringLengthBoundsAreInclusiveAndCountCharacters: a string's minLength and
// maxLength admit a value of exactly that many characters (not bytes), and refuse
// one character fewer or more.
func TestStringLengthBoundsAreInclusiveAndCountCharacters(t *testing.T) {
	t.Parallel()
	c := stringCheck(stringRules{minLen: ptr(2), maxLen: ptr(4)})
	for _, tc := range []struct {
		v    string
		want []string
	}{
		{"ab", nil},
		{"abcd", nil},
		{"éé", nil},
		{"éééé", nil},
		{"a", []string{"a: Value too short: The value has 1 characters; at least 2 are required."}},
		{"é", []string{"a: Value too short: The value has 1 characters; at least 2 are required."}},
		{"abcde", []string{"a: Value too long: The value has 5 characters; at most 4 are allowed."}},
	} {
		if d := cmp.Diff(tc.want, validateString(c, tc.v)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.v, d)
		}
	}
}

// TestCollectionChecksBoundsElementsAndDistinctness: a list or set is held to its
// item counts (inclusive), each string element to the element rules (a pattern
// alone is a rule), at the element's own path (a list's index, a set's value), and
// a list declared distinct refuses an entry repeating an earlier one.
func TestCollectionChecksBoundsElementsAndDistinctness(t *testing.T) {
	t.Parallel()
	upper := stringRules{pattern: lazyre.New(`^[A-Z]+$`)}
	bounded := collectionCheck(ptr(1), ptr(2), false, upper)
	list := func(vs ...string) types.List { return types.ListValueMust(types.StringType, stringValues(vs...)) }
	set := func(vs ...string) types.Set { return types.SetValueMust(types.StringType, stringValues(vs...)) }
	for _, tc := range []struct {
		name string
		got  []string
		want []string
	}{
		{"one entry", validateList(bounded, list("A")), nil},
		{"two entries", validateList(bounded, list("A", "B")), nil},
		{"none", validateList(bounded, list()), []string{"a: Too few entries: 0 entries given; at least 1 are required."}},
		{"three", validateList(bounded, list("A", "B", "C")), []string{"a: Too many entries: 3 entries given; at most 2 are allowed."}},
		{"a list element off the pattern", validateList(bounded, list("A", "b")),
			[]string{`a[1]: Value does not match the required pattern: "b" must match ^[A-Z]+$.`}},
		{"a set element off the pattern", validateSet(bounded, set("A", "b")),
			[]string{`a[Value("b")]: Value does not match the required pattern: "b" must match ^[A-Z]+$.`}},
		{"a set of three", validateSet(bounded, set("A", "B", "C")), []string{"a: Too many entries: 3 entries given; at most 2 are allowed."}},
		{"a repeat in a distinct list", validateList(collectionCheck(nil, nil, true, stringRules{}), list("A", "B", "A", "B")),
			[]string{"a[2]: Duplicate entry: Entry 2 repeats entry 0; entries must be distinct.",
				"a[3]: Duplicate entry: Entry 3 repeats entry 1; entries must be distinct."}},
		{"a repeat in a list not declared distinct", validateList(collectionCheck(nil, nil, false, stringRules{}), list("A", "A")), nil},
	} {
		if d := cmp.Diff(tc.want, tc.got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}

// TestTimeoutsArePositiveDurations: a timeout is a Go duration greater than zero.
func TestTimeoutsArePositiveDurations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    string
		want []string
	}{
		{"1ns", nil},
		{"20m", nil},
		{"0s", []string{`a: Invalid timeout: "0s" is not a positive Go duration such as "30s", "20m" or "1h".`}},
		{"-1m", []string{`a: Invalid timeout: "-1m" is not a positive Go duration such as "30s", "20m" or "1h".`}},
		{"soon", []string{`a: Invalid timeout: "soon" is not a positive Go duration such as "30s", "20m" or "1h".`}},
	} {
		if d := cmp.Diff(tc.want, validateString(durationValidator, tc.v)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.v, d)
		}
	}
}

// TestJSONObjectMemberBoundIsInclusive: a JSON object attribute may hold exactly
// its maximum of members, not one more.
func TestJSONObjectMemberBoundIsInclusive(t *testing.T) {
	t.Parallel()
	c := jsonObjectCheck(ptr(2))
	if d := cmp.Diff([]string(nil), validateString(c, `{"A":1,"B":2}`)); d != "" {
		t.Errorf("two members (-want +got):\n%s", d)
	}
	want := []string{"a: Too many members: The object has 3 members; at most 2 are allowed."}
	if d := cmp.Diff(want, validateString(c, `{"A":1,"B":2,"C":3}`)); d != "" {
		t.Errorf("three members (-want +got):\n%s", d)
	}
}
