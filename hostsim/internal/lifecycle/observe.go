package lifecycle

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Observe is a fenced re-read of cur, recorded under f: no claim held, the
// generation fence and If-Match current, the profile offering observe; touch
// (the touch-status probe) records one host-side status change.
func (en *Engine) Observe(q store.Q, f *catalog.Form, cur *store.Resource, pre core.Preconditions, touch bool, fs *fault.Set) *wire.Error {
	if e := core.CheckClaim(cur, "observe", fs); e != nil {
		return e
	}
	what := core.Describe(cur.Kind, cur.Name, cur.Space)
	if e := core.CheckGeneration(cur, pre.Fence, false, what, "; read it again", fs); e != nil {
		return e
	}
	if e := core.CheckRevision(cur, pre.IfMatch, false, what, fs); e != nil {
		return e
	}
	if v := en.Host.CheckOperation(f, "observe"); v != nil {
		return core.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
	}
	if !touch {
		return nil
	}
	core.Touch(cur, fs)
	if err := store.UpdateResource(q, cur); err != nil {
		return core.Internal(err)
	}
	if err := store.AddCounter(q, "mutations", 1); err != nil {
		return core.Internal(err)
	}
	return nil
}

// Prepare resolves prepare's target in the caller's tenant and mints (or
// refreshes) the prepareDigest binding the gated spec to it.
func (en *Engine) Prepare(q store.Q, tenant string, in *core.Request, g *core.Gated, fence int64, fs *fault.Set) (string, *wire.Error) {
	cur, err := store.GetResource(q, tenant, in.Space, in.Ref.APIVersion, in.Ref.Kind, in.Name)
	if err != nil {
		return "", core.Internal(err)
	}
	uid, gen, e := core.PrepareTarget(cur, in.Ref, fence, core.Describe(in.Ref.Kind, in.Name, in.Space), fs)
	if e != nil {
		return "", e
	}
	t := core.PrepareTenant(tenant, fs)
	digest := core.PrepareBinding(g.Digest, in.Ref, in.Name, t, in.Space, uid, gen)
	if err := store.MintPrepare(q, digest, t, en.Now().Unix()); err != nil {
		return "", core.Internal(err)
	}
	return digest, nil
}
