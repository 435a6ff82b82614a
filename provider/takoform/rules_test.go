package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestSchemaLeavesNoCheckOrPlanModifierToTheFramework: every validator of ours is run by
// ValidateConfig and every plan rule by ModifyPlan, so the framework calls (and logs)
// none per attribute (docs/provider-design.md#plan-cost).
func TestSchemaLeavesNoCheckOrPlanModifierToTheFramework(t *testing.T) {
	t.Parallel()
	p := testProvider(t)
	for _, kt := range p.kinds {
		if len(kt.checks) == 0 {
			t.Errorf("%s: no attribute check was lifted out of its schema", kt.model.typeName)
		}
		var walk func(prefix string, attrs map[string]schema.Attribute)
		walk = func(prefix string, attrs map[string]schema.Attribute) {
			for name, a := range attrs {
				mods, checks := 0, 0
				switch x := a.(type) {
				case schema.StringAttribute:
					mods, checks = len(x.PlanModifiers), countChecks(x.Validators)
				case schema.Int64Attribute:
					mods, checks = len(x.PlanModifiers), countChecks(x.Validators)
				case schema.BoolAttribute:
					mods, checks = len(x.PlanModifiers), countChecks(x.Validators)
				case schema.SetAttribute:
					mods, checks = len(x.PlanModifiers), countChecks(x.Validators)
				case schema.ListAttribute:
					mods, checks = len(x.PlanModifiers), countChecks(x.Validators)
				case schema.ListNestedAttribute:
					mods, checks = len(x.PlanModifiers), countChecks(x.Validators)
					walk(prefix+name+".", x.NestedObject.Attributes)
				}
				if mods > 0 || checks > 0 {
					t.Errorf("%s%s: %d plan modifiers and %d checks left to the framework", prefix, name, mods, checks)
				}
			}
		}
		walk(kt.model.typeName+".", kt.schema.Attributes)
	}
}

func countChecks[V any](vs []V) int {
	mine, _ := splitChecks(vs)
	return len(mine)
}

// TestNestedMemberChecksNameTheElement: a lifted check of a nested list member runs on
// every element and names the element's member, as the framework's validator did.
func TestNestedMemberChecksNameTheElement(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	lt := h.kind(capDeploymentType).objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	dep := values{aName: s("web"), "worker": s("api"), "versions": objList(t, lt,
		map[string]attr.Value{"weight": i64(5000), "worker_version": s("v-a")},
		map[string]attr.Value{"weight": i64(0), "worker_version": s("v-b")})}
	pr := h.plan(capDeploymentType, dep, nil)
	wantDiags(t, pr.diags, errorDiag("Weights of versions add up to 5000, not 10000",
		"The entries split traffic, so their weights must add up to exactly the maximum weight.",
		"",
		"Resource: takoform_worker_deployment (web)",
		"Code: takoform.provider/weight-sum-invalid",
		"Retryable: no",
		"",
		"Adjust the weights so they sum to 10000.").at("versions"),
		errorDiag("Value out of range", "versions[1].weight: 0 is outside the allowed range 1 to 10000.").at("versions[1].weight"))
	ver := values{aRevisionOwner: s("team"), "worker": s("api"), "bundle": s("b"),
		"handlers":    types.SetValueMust(types.StringType, []attr.Value{s("fetch")}),
		"kv_bindings": objList(t, bindingItemType(), map[string]attr.Value{"name": s("not a name"), bindingTargetAttr: s("kv")})}
	pr = h.plan(capVersionType, ver, nil)
	wantDiags(t, pr.diags, errorDiag("Value does not match the required pattern",
		`kv_bindings[0].name: "not a name" must match ^[A-Za-z_$][A-Za-z0-9_$]*$. Property name under which the handle appears on the worker's env object.`).at("kv_bindings[0].name"))
	// a binding's target is a resource name, held to the name rule, not to the env name's
	ver["kv_bindings"] = objList(t, bindingItemType(), map[string]attr.Value{"name": s("CACHE"), bindingTargetAttr: s("Kv_Store")},
		map[string]attr.Value{"name": s("OTHER"), bindingTargetAttr: s("kv-store")})
	pr = h.plan(capVersionType, ver, nil)
	wantDiags(t, pr.diags, errorDiag("Value does not match the required pattern",
		`kv_bindings[0].target_name: "Kv_Store" must match ^[a-z][a-z0-9-]{0,62}$. A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter.`).at("kv_bindings[0].target_name"))
}
