package takoform

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// UpgradeState registers the upgrader from version 0, which copies the prior value
// unchanged (docs/provider-design.md#recorded-ref).
func (r *Resource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: r.upgradeFrom0},
	}
}

func (r *Resource) upgradeFrom0(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil {
		resp.Diagnostics.AddError("State to upgrade is missing",
			"OpenTofu asked to upgrade a "+r.kind.model.typeName+" state from schema version 0 but sent no prior state.")
		return
	}
	raw, err := req.RawState.Unmarshal(r.kind.objectType.TerraformType(ctx))
	if err != nil {
		resp.Diagnostics.AddError("State to upgrade is unreadable",
			"The "+r.kind.model.typeName+" state of schema version 0 does not match the attributes of this type: "+err.Error())
		return
	}
	resp.State.Raw = raw
}
