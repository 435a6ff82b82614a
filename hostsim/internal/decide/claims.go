package decide

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// CheckClaim refuses a lifecycle mutation or observe (route) of a resource a
// Form transition holds (docs/protocol.md#transitions): resource_busy, not
// retryable, hostCode form_transition_in_progress. r is nil when nothing holds
// the name.
func CheckClaim(r *stored.Resource, route string, a *Acts) *wire.Error {
	if r == nil || r.ClaimOp == "" {
		return nil
	}
	if a.On(TransitionNoClaim) {
		return nil
	}
	e := Refuse(wire.CodeResourceBusy, "%s is held by Form transition %s; no %s is accepted until it resolves. Read GET %s for its outcome (re-running tofu apply reconciles it)",
		Describe(r.Kind, r.Name, r.Space), r.ClaimOp, route, r.ClaimPath)
	e.HostCode, e.Retryable = "form_transition_in_progress", false
	return e
}
