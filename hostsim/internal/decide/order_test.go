package decide

import (
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// A delete accepted with a 202 is decided again at commit: the uid it bound
// still holding the name does not spare it the fences (docs/protocol.md#order).
func TestCheckDeletionAtCommitChecksFencesAfterIdentity(t *testing.T) {
	for _, tc := range []struct {
		name         string
		fence, match int64
		target       string
		want         wire.Code
	}{
		{name: "bound uid, current fences", fence: 3, target: "u-1"},
		{name: "bound uid, stale generation", fence: 2, target: "u-1", want: wire.CodeGenerationConflict},
		{name: "bound uid, stale If-Match", fence: 3, match: 4, target: "u-1", want: wire.CodeRevisionConflict},
		{name: "replaced since the 202, stale generation", fence: 2, target: "u-0", want: wire.CodeUIDMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := &Deletion{Tenant: "t", Space: "s", Ref: refA, Name: "orders", Fence: tc.fence, IfMatch: tc.match, TargetUID: tc.target}
			if got := codeOf(CheckDeletion(d, current(), true, "delete", d.What(), nil)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// A create that create.overwrite lets onto a taken name goes on to the
// capability check of the resource it overwrites (step 13).
func TestCheckMutationOverwriteMeetsCapabilities(t *testing.T) {
	noUpdate := &catalog.Form{Ref: refA, Role: "identity", Capabilities: []string{"create", "read", "delete", "import", "observe"}}
	cur := current()
	cur.Spec = []byte(`{"a":1}`)
	cur.SpecDigest = wire.RawDigest(cur.Spec)
	m := &Mutation{Tenant: "t", Space: "s", Ref: refA, Name: "orders", Action: "apply", IfNoneMatch: true}
	a := armed(CreateOverwrite)
	e := CheckMutation(m, noUpdate, gated(`{"a":2}`), cur, false, "apply", m.What(), a)
	if codeOf(e) != wire.CodeInvalidArgument {
		t.Fatalf("an overwriting create that changes a Form without update: got %v, want invalid_argument", e)
	}
	if a.Fired(CreateOverwrite) != 1 {
		t.Fatalf("create.overwrite fired %d times, want 1", a.Fired(CreateOverwrite))
	}
	if e := CheckMutation(m, noUpdate, gated(`{"a":1}`), cur, false, "apply", m.What(), armed(CreateOverwrite)); e != nil {
		t.Fatalf("an overwriting create of the same spec: %v", e)
	}
}
