package takoform

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
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
	d := diagWith(h.plan(capVersionType, ver, nil).diags, `Host does not accept handlers = "queue"`, `accepts exactly "fetch"`, "Pointer: /spec/handlers")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil || !strings.Contains(d.Attribute.String(), `"queue"`) {
		t.Fatalf("want the refusal of the known handler queue at its set element, got:\n%v", d)
	}

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
	d = diagWith(h.plan(capDeploymentType, dep, nil).diags, "Host does not accept versions[0].weight = 7000", "6000 or less", "Pointer: /spec/versions/0/weight")
	if d == nil || d.Attribute == nil || d.Attribute.String() != `AttributeName("versions").ElementKeyInt(0).AttributeName("weight")` {
		t.Fatalf("want the refusal at versions[0].weight, got:\n%v", d)
	}
}
