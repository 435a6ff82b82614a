package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestWholeKnownLooksInsideEveryCollection: a value is whole known only when
// nothing inside it is unknown, however deep: a list, a set or an object holding
// one unknown element or member is not, even where it is itself known.
func TestWholeKnownLooksInsideEveryCollection(t *testing.T) {
	t.Parallel()
	str := types.StringType
	obj := types.ObjectType{AttrTypes: map[string]attr.Type{"a": str}}
	known := types.ObjectValueMust(obj.AttrTypes, map[string]attr.Value{"a": types.StringValue("x")})
	unknown := types.ObjectValueMust(obj.AttrTypes, map[string]attr.Value{"a": types.StringUnknown()})
	for _, c := range []struct {
		name string
		v    attr.Value
		want bool
	}{
		{"a string", types.StringValue("x"), true},
		{"null", types.StringNull(), true},
		{"unknown", types.StringUnknown(), false},
		{"nil", nil, false},
		{"a list of known strings", types.ListValueMust(str, []attr.Value{types.StringValue("x")}), true},
		{"a list holding an unknown", types.ListValueMust(str, []attr.Value{types.StringValue("x"), types.StringUnknown()}), false},
		{"a set holding an unknown", types.SetValueMust(str, []attr.Value{types.StringUnknown()}), false},
		{"an object with an unknown member", unknown, false},
		{"a list of objects, one with an unknown member", types.ListValueMust(obj, []attr.Value{known, unknown}), false},
		{"a list of known objects", types.ListValueMust(obj, []attr.Value{known}), true},
	} {
		if got := wholeKnown(c.v); got != c.want {
			t.Errorf("%s: wholeKnown = %v, want %v", c.name, got, c.want)
		}
	}
}
