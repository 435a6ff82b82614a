package decide

import (
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// What moves what (docs/protocol.md#identity): the generation moves exactly
// when the desired spec changes (by specDigest); the revision moves whenever
// the served representation changes, by exactly one per accepted mutation.

// NewUID is the uid a create mints: minted, unless a fault mints one outside
// the uid grammar or the last deleted one again (lastGone, "" if none).
func NewUID(minted, lastGone string, a *Acts) string {
	uid := minted
	if a.On(UIDInvalid) {
		uid = "-" + uid // outside ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$
	}
	if lastGone != "" {
		if a.On(UIDReuse) {
			uid = lastGone
		}
	}
	return uid
}

// NextCreate is a new incarnation at generation and revision 1, Ready.
func NextCreate(m *Mutation, g *Gated, uid, now string) *stored.Resource {
	return &stored.Resource{Tenant: m.Tenant, Space: m.Space, APIVersion: m.Ref.APIVersion, Kind: m.Ref.Kind,
		Name: m.Name, UID: uid, DefVersion: m.Ref.DefinitionVersion, SchemaDigest: m.Ref.SchemaDigest,
		Generation: 1, Revision: 1, Spec: g.JCS, SpecDigest: g.Digest, NativeID: m.NativeID,
		ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable, ReadyLTT: now, CreatedAt: now}
}

// NextChange is the stored state after an accepted change of cur: a new spec
// moves generation and revision; an import records its nativeId claim on a
// resource that holds none. changed reports whether stored state moved.
func NextChange(cur *stored.Resource, g *Gated, action, nativeID string, a *Acts) (next stored.Resource, changed bool) {
	next = *cur
	if cur.SpecDigest != g.Digest {
		if !a.On(GenerationFrozen) {
			next.Generation++
		}
		next.Revision++
		next.Spec, next.SpecDigest = g.JCS, g.Digest
		changed = true
	}
	if action == "import" && cur.NativeID == "" {
		next.NativeID = nativeID
		changed = true
	}
	return next, changed
}

// Touch is a host-side status change (the touch-status probe): the Ready
// message changes and the revision moves, never the generation.
func Touch(cur *stored.Resource, a *Acts) {
	cur.Touches++
	cur.Revision++
	if a.On(GenerationOnStatus) {
		cur.Generation++
	}
	cur.ReadyMessage = fmt.Sprintf("host-side status change %d", cur.Touches)
}
