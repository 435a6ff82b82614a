package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestPlanWithAnUnknownDefinitionVersionWaitsForIt: form_definition_version known only
// after apply (it comes from another resource) leaves the ref to the next round of
// planning: no error, no request to the host, the ref planned unknown.
func TestPlanWithAnUnknownDefinitionVersionWaitsForIt(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	before := capCounters(t, h).requests
	pr := h.plan(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: types.StringUnknown()}, nil)
	mustNoError(t, "plan", pr.diags)
	if len(pr.diags) != 0 || !pr.planned[aFormDefVersion].IsUnknown() || !pr.planned[aFormSchemaDigest].IsUnknown() {
		t.Fatalf("want a quiet plan with the ref unknown; version=%v digest=%v\n%s", pr.planned[aFormDefVersion], pr.planned[aFormSchemaDigest], dump(pr.diags))
	}
	if got := capCounters(t, h).requests - before; got != 0 {
		t.Errorf("the plan made %d requests", got)
	}
}

// TestPlanOfARenameWithAnUnknownVersionIsTheRulesPlan: a rename (a replacement) whose
// definition version is not known yet is left to the next round too, but the plan it
// returns is the one the plan rules made: the replacement on name, the recorded
// identity kept where the framework had made it unknown.
func TestPlanOfARenameWithAnUnknownVersionIsTheRulesPlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	before := capCounters(t, h).requests
	pr := h.plan(queueType, values{aName: s("orders-2"), "message_retention_seconds": i64(3600), aFormDefVersion: types.StringUnknown()}, st)
	mustNoError(t, "plan", pr.diags)
	if len(pr.replace) != 1 || pr.replace[0] != `AttributeName("name")` {
		t.Errorf("RequiresReplace = %v, want name", pr.replace)
	}
	for _, a := range []string{aUID, aFormKind, aFormSchemaDigest, aSpace} {
		if !pr.planned[a].Equal(st[a]) {
			t.Errorf("%s planned %v, want the rules' kept %v", a, pr.planned[a], st[a])
		}
	}
	if !pr.planned[aFormDefVersion].IsUnknown() {
		t.Errorf("form_definition_version planned %v, want unknown", pr.planned[aFormDefVersion])
	}
	if got := capCounters(t, h).requests - before; got != 0 {
		t.Errorf("the plan made %d requests", got)
	}
}
