package related

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Static assets on a Worker Version (docs/protocol.md#static-assets): the bundle
// relation is an ordinary pinned relation (resolved by Resolve); what is decided
// here is the single-page-application fallback, which needs an index in the exact
// manifest the relation pinned.

// versionAssets refuses a version whose notFoundHandling falls back to the index
// when the pinned asset bundle's manifest declares none (invalid_argument, before
// any mutation, and again when an accepted 202 commits).
func (g *G) versionAssets(q store.Q, f *catalog.Form, m *decide.Mutation, gd *decide.Gated, pins []store.Pin, fs *fault.Set) *wire.Error {
	vr := roles.version(m.Ref.Kind)
	if vr == nil || vr.Assets == nil {
		return nil
	}
	a := vr.Assets
	if mode, _ := valueAt(gd.Spec, a.NotFoundHandling).(string); mode != a.Fallback {
		return nil
	}
	bp, ok := pinAt(pins, a.Bundle)
	if !ok {
		return nil // no assets, or a missing target a fault let through
	}
	b, e := g.pinnedBundle(q, f, m, bp, fs)
	if b == nil {
		return e // refused (pinnedBundle answers no bundle with its refusal), or no stored bundle
	}
	if b.Manifest.Has(a.Index) {
		return nil
	}
	if fs.On(fault.AssetsSPAWithoutIndex) {
		return nil // the version falls back to an index its bundle does not hold
	}
	var others []string
	if fl := f.ObjectMember(a.NotFoundHandling); fl != nil {
		others = fl.Enum
	}
	r := rules.FallbackWithoutIndex(a.NotFoundHandling, a.Fallback, a.Index, others, rules.AssetBundle{
		Pointer: bp.Pointer, Kind: b.Resource.Kind, Name: b.Resource.Name, UID: b.Resource.UID, Manifest: b.Manifest.Digest})
	return prefixed(m.What(), r.Wire())
}
