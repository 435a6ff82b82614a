package takoform

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/takokit/takokit/provider/internal/lazyre"
)

// The validators run on an attribute "a"; their diagnostics are compared whole
// (wantDiags, through fromFramework).

func validateString(t *testing.T, c check, v string) []*tfprotov6.Diagnostic {
	var r validator.StringResponse
	c.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("a"), ConfigValue: types.StringValue(v)}, &r)
	return fromFramework(t, r.Diagnostics)
}

func validateList(t *testing.T, c check, v types.List) []*tfprotov6.Diagnostic {
	var r validator.ListResponse
	c.ValidateList(context.Background(), validator.ListRequest{Path: path.Root("a"), ConfigValue: v}, &r)
	return fromFramework(t, r.Diagnostics)
}

func validateSet(t *testing.T, c check, v types.Set) []*tfprotov6.Diagnostic {
	var r validator.SetResponse
	c.ValidateSet(context.Background(), validator.SetRequest{Path: path.Root("a"), ConfigValue: v}, &r)
	return fromFramework(t, r.Diagnostics)
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
	short := errorDiag("Value too short", "The value has 1 characters; at least 2 are required.").at("a")
	for _, tc := range []struct {
		v    string
		want []diagnostic
	}{
		{"ab", nil},
		{"abcd", nil},
		{"éé", nil},
		{"éééé", nil},
		{"a", []diagnostic{short}},
		{"é", []diagnostic{short}},
		{"abcde", []diagnostic{errorDiag("Value too long", "The value has 5 characters; at most 4 are allowed.").at("a")}},
	} {
		t.Run(tc.v, func(t *testing.T) { wantDiags(t, validateString(t, c, tc.v), tc.want...) })
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
	distinct := collectionCheck(nil, nil, true, stringRules{})
	list := func(vs ...string) types.List { return types.ListValueMust(types.StringType, stringValues(vs...)) }
	set := func(vs ...string) types.Set { return types.SetValueMust(types.StringType, stringValues(vs...)) }
	tooMany := errorDiag("Too many entries", "3 entries given; at most 2 are allowed.").at("a")
	offPattern := errorDiag("Value does not match the required pattern", `"b" must match ^[A-Z]+$: one or more uppercase letters.`)
	for _, tc := range []struct {
		name string
		got  func(t *testing.T) []*tfprotov6.Diagnostic
		want []diagnostic
	}{
		{"one entry", func(t *testing.T) []*tfprotov6.Diagnostic { return validateList(t, bounded, list("A")) }, nil},
		{"two entries", func(t *testing.T) []*tfprotov6.Diagnostic { return validateList(t, bounded, list("A", "B")) }, nil},
		{"none", func(t *testing.T) []*tfprotov6.Diagnostic { return validateList(t, bounded, list()) },
			[]diagnostic{errorDiag("Too few entries", "0 entries given; at least 1 are required.").at("a")}},
		{"three", func(t *testing.T) []*tfprotov6.Diagnostic { return validateList(t, bounded, list("A", "B", "C")) }, []diagnostic{tooMany}},
		{"a list element off the pattern", func(t *testing.T) []*tfprotov6.Diagnostic { return validateList(t, bounded, list("A", "b")) },
			[]diagnostic{offPattern.at("a[1]")}},
		{"a set element off the pattern", func(t *testing.T) []*tfprotov6.Diagnostic { return validateSet(t, bounded, set("A", "b")) },
			[]diagnostic{offPattern.at(`a{"b"}`)}},
		{"a set of three", func(t *testing.T) []*tfprotov6.Diagnostic { return validateSet(t, bounded, set("A", "B", "C")) }, []diagnostic{tooMany}},
		{"a repeat in a distinct list", func(t *testing.T) []*tfprotov6.Diagnostic { return validateList(t, distinct, list("A", "B", "A", "B")) },
			[]diagnostic{errorDiag("Duplicate entry", "Entry 2 repeats entry 0; entries must be distinct.").at("a[2]"),
				errorDiag("Duplicate entry", "Entry 3 repeats entry 1; entries must be distinct.").at("a[3]")}},
		{"a repeat in a list not declared distinct", func(t *testing.T) []*tfprotov6.Diagnostic {
			return validateList(t, collectionCheck(nil, nil, false, stringRules{}), list("A", "A"))
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) { wantDiags(t, tc.got(t), tc.want...) })
	}
}

// TestTimeoutsArePositiveDurations: a timeout is a Go duration greater than zero.
func TestTimeoutsArePositiveDurations(t *testing.T) {
	t.Parallel()
	invalid := func(v string) []diagnostic {
		return []diagnostic{errorDiag("Invalid timeout", `"`+v+`" is not a positive Go duration such as "30s", "20m" or "1h".`).at("a")}
	}
	for _, tc := range []struct {
		v    string
		want []diagnostic
	}{
		{"1ns", nil},
		{"20m", nil},
		{"0s", invalid("0s")},
		{"-1m", invalid("-1m")},
		{"soon", invalid("soon")},
	} {
		t.Run(tc.v, func(t *testing.T) { wantDiags(t, validateString(t, durationValidator, tc.v), tc.want...) })
	}
}

// TestJSONObjectMemberBoundIsInclusive: a JSON object attribute may hold exactly
// its maximum of members, not one more.
func TestJSONObjectMemberBoundIsInclusive(t *testing.T) {
	t.Parallel()
	c := jsonObjectCheck(ptr(2))
	wantDiags(t, validateString(t, c, `{"A":1,"B":2}`))
	wantDiags(t, validateString(t, c, `{"A":1,"B":2,"C":3}`),
		errorDiag("Too many members", "The object has 3 members; at most 2 are allowed.").at("a"))
}
