package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/hostsim"
)

// TestIntegerWithOneBoundIsCheckedAtItsAttribute: an integer field bounded on one side
// only (just a minimum, or just a maximum) is still checked by its attribute when the
// configuration is validated, not first by the whole-spec check at plan.
func TestIntegerWithOneBoundIsCheckedAtItsAttribute(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		drop   string
		size   int64
		detail string
	}{
		{"maximum", 0, "0 is outside the allowed range 1 or more."},
		{"minimum", 11, "11 is outside the allowed range 10 or less."},
	} {
		t.Run("without "+c.drop, func(t *testing.T) {
			t.Parallel()
			dir := gadgetDir(t)
			reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
				delete(gadgetProps(def)["size"].(map[string]any), c.drop)
			}, nil)
			h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
			pr := h.plan(gadgetType, values{aName: s("g"), "holder": s("h"), "size": i64(c.size)}, nil)
			wantDiags(t, pr.diags, errorDiag("Value out of range", c.detail).at("size"))
		})
	}
}

// TestIntegerMemberWithOneBoundIsCheckedAtItsAttribute: the same for a member of an
// object attribute (placement.replicas).
func TestIntegerMemberWithOneBoundIsCheckedAtItsAttribute(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		drop     string
		replicas int64
		detail   string
	}{
		{"maximum", 0, "0 is outside the allowed range 1 or more."},
		{"minimum", 10, "10 is outside the allowed range 9 or less."},
	} {
		t.Run("without "+c.drop, func(t *testing.T) {
			t.Parallel()
			dir := gadgetDir(t)
			addPlacement(t, dir)
			reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
				delete(gadgetProps(def)["placement"].(map[string]any)["properties"].(map[string]any)["replicas"].(map[string]any), c.drop)
			}, nil)
			h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
			ot := h.kind(gadgetType).objectType.AttrTypes["placement"].(types.ObjectType)
			placement := types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"zone": s("east"), "replicas": i64(c.replicas), "store": s("main")})
			pr := h.plan(gadgetType, values{aName: s("g"), "holder": s("h"), "placement": placement}, nil)
			wantDiags(t, pr.diags, errorDiag("Value out of range", c.detail).at("placement.replicas"))
		})
	}
}
