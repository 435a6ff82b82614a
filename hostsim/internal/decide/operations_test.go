package decide

import (
	"testing"

	"github.com/takokit/takokit/hostsim/internal/stored"
)

func TestCheckOperationOwnerAndDue(t *testing.T) {
	op := &stored.Operation{ID: "op_1", Tenant: "tenant-a", Principal: "alice", CompleteAfter: 2}
	for _, tc := range []struct {
		name              string
		op                *stored.Operation
		tenant, principal string
		fs                []Fault
		ok                bool
	}{
		{name: "the creating principal", op: op, tenant: "tenant-a", principal: "alice", ok: true},
		{name: "unknown", tenant: "tenant-a", principal: "alice"},
		{name: "another principal of the tenant", op: op, tenant: "tenant-a", principal: "bob"},
		{name: "another principal, operation.tenant-wide", op: op, tenant: "tenant-a", principal: "bob", fs: []Fault{OperationTenantWide}, ok: true},
		{name: "another tenant, operation.tenant-wide", op: op, tenant: "tenant-b", principal: "alice", fs: []Fault{OperationTenantWide}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if e := CheckOperationOwner(tc.op, "op_1", tc.tenant, tc.principal, armed(tc.fs...)); (e == nil) != tc.ok {
				t.Fatalf("got %v, want ok=%v", e, tc.ok)
			}
		})
	}
	for polls, due := range map[int64]bool{0: false, 1: false, 2: true, 3: true} {
		op.Polls = polls
		if Due(op) != due {
			t.Errorf("%d polls of completeAfter 2: due %v", polls, !due)
		}
	}
	op.CompleteAfter, op.Polls = -1, 100
	if Due(op) {
		t.Error("an operation that settles only through the admin API is due")
	}
}
