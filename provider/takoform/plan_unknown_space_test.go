package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestSpaceKnownOnlyAfterApplyIsNotReplacedByADefault: a space the configuration
// takes from another resource (unknown at plan) stays unknown in the plan — neither the
// provider's default space nor the prior state's stands in for it — and the plan is
// not refused for a missing space.
func TestSpaceKnownOnlyAfterApplyIsNotReplacedByADefault(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{}) // the provider's default space is dev
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aSpace: types.StringUnknown()}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "create plan", pr.diags)
	if !pr.planned[aSpace].IsUnknown() {
		t.Errorf("create: space planned %v, want unknown", pr.planned[aSpace])
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	pr = h.plan(queueType, cfg, st)
	mustNoError(t, "update plan", pr.diags)
	if !pr.planned[aSpace].IsUnknown() {
		t.Errorf("existing resource: space planned %v, want unknown (the prior %q would hide a move)", pr.planned[aSpace], st.str(aSpace))
	}
}
