package decide

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// CheckOperationOwner: an Operation answers only the tenant and principal
// whose request it accepted (docs/protocol.md#operations); anyone else gets
// the answer of an unknown id. op is nil when the id is unknown.
func CheckOperationOwner(op *stored.Operation, id, tenant, principal string, a *Acts) *wire.Error {
	unknown := Refuse(wire.CodeOperationNotFound, "operation %s is unknown, expired or not yours", id)
	if op == nil || op.Tenant != tenant {
		return unknown
	}
	if op.Principal != principal {
		if !a.On(OperationTenantWide) {
			return unknown
		}
	}
	return nil
}

// Due reports whether a poll settles a pending operation: after
// CompleteAfter polls (never when CompleteAfter < 0: the admin API settles it).
func Due(op *stored.Operation) bool {
	return op.CompleteAfter > 0 && op.Polls >= op.CompleteAfter
}
