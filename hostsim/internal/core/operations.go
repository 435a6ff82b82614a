package core

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// CheckOperationOwner: an Operation answers only the tenant and principal
// whose request it accepted (docs/protocol.md#operations); anyone else gets
// the answer of an unknown id. op is nil when the id is unknown.
func CheckOperationOwner(op *store.Operation, id, tenant, principal string, fs *fault.Set) *wire.Error {
	unknown := Refuse(wire.CodeOperationNotFound, "operation %s is unknown, expired or not yours", id)
	if op == nil || op.Tenant != tenant {
		return unknown
	}
	if op.Principal != principal {
		if !fs.On(fault.OperationTenantWide) {
			return unknown
		}
	}
	return nil
}

// Due reports whether a poll settles a pending operation: after
// CompleteAfter polls (never when CompleteAfter < 0: the admin API settles it).
func Due(op *store.Operation) bool {
	return op.CompleteAfter > 0 && op.Polls >= op.CompleteAfter
}
