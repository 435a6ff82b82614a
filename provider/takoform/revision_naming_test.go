package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestRevisionNamingWaitsForUnknownValues: name and revision_owner are checked
// only once both are known (docs/provider-design.md); an unknown one, the other
// unset, is neither a conflict nor a missing name, and the plan says nothing.
func TestRevisionNamingWaitsForUnknownValues(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	base := values{"worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})}
	for _, tc := range []struct {
		name string
		set  values
	}{
		{"an unknown name, no owner", values{aName: types.StringUnknown()}},
		{"an unknown owner, no name", values{aRevisionOwner: types.StringUnknown()}},
		{"an unknown name beside an owner", values{aName: types.StringUnknown(), aRevisionOwner: s("team")}},
	} {
		cfg := base.clone()
		for k, v := range tc.set {
			cfg[k] = v
		}
		pr := h.plan("takoform_worker_version", cfg, nil)
		wantDiags(t, pr.diags)
		if t.Failed() {
			t.Fatalf("%s: the plan must wait for the unknown value", tc.name)
		}
	}
}
