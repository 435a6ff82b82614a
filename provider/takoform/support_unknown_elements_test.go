package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestSupportSkipsUnknownElementsAndChecksTheRest: an element of a set or list that is
// not known at plan (it comes from another resource) is left to apply; the known
// elements beside it are still checked, each refusal naming its element.
func TestSupportSkipsUnknownElementsAndChecksTheRest(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"fetch-and-light","extends":"full",
		"supportedEnums":{"WorkerVersion":{"handlers":["fetch"]}},
		"supportedRanges":{"WorkerDeployment":{"versions.weight":{"maximum":6000}}}}`)})

	handlers := func(known string) attr.Value {
		return types.SetValueMust(types.StringType, []attr.Value{s(known), types.StringUnknown()})
	}
	ver := capVersion(h, "fetch")
	ver["handlers"] = handlers("fetch")
	pr := h.plan(capVersionType, ver, nil)
	if len(pr.diags) != 0 {
		t.Fatalf("an unknown handler beside an accepted one must plan quietly:\n%s", dump(pr.diags))
	}
	ver["handlers"] = handlers("queue")
	// the name derives from the handlers, so it is not known yet
	wantDiags(t, h.plan(capVersionType, ver, nil).diags, errorDiag(`Host does not accept handlers = "queue"`,
		`The value is valid for the Form; this host accepts exactly "fetch". This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.`,
		"",
		"Resource: takoform_worker_version (space dev, name known after apply)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/handlers",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use an accepted value, or another host.").at(`handlers{"queue"}`))

	lt := h.kind(capDeploymentType).objectType.AttrTypes["versions"].(types.ListType).ElemType.(types.ObjectType)
	versions := func(weight int64) attr.Value {
		return types.ListValueMust(lt, []attr.Value{
			types.ObjectValueMust(lt.AttrTypes, map[string]attr.Value{"weight": i64(weight), "worker_version": s("v1")}),
			types.ObjectValueMust(lt.AttrTypes, map[string]attr.Value{"weight": types.Int64Unknown(), "worker_version": s("v2")}),
		})
	}
	dep := values{aName: s("web"), "worker": s("api"), "versions": versions(4000)}
	if pr := h.plan(capDeploymentType, dep, nil); len(pr.diags) != 0 {
		t.Fatalf("a version entry of unknown weight beside an accepted one must plan quietly:\n%s", dump(pr.diags))
	}
	dep["versions"] = versions(7000)
	wantDiags(t, h.plan(capDeploymentType, dep, nil).diags, errorDiag("Host does not accept versions[0].weight = 7000",
		"The value is valid for the Form; this host accepts 6000 or less. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_deployment (dev/web)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerDeployment@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/versions/0/weight",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use 6000 or less, or another host.").at("versions[0].weight"))
}
