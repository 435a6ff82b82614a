package lifecycle

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Observe is a fenced re-read of cur, recorded under f: no claim held, the
// generation fence and If-Match current, the profile offering observe; touch
// (the touch-status probe) records one host-side status change.
func (en *Engine) Observe(q store.Q, f *catalog.Form, cur *store.Resource, pre decide.Preconditions, touch bool, fs *fault.Set) *wire.Error {
	what := decide.Describe(cur.Kind, cur.Name, cur.Space)
	var e *wire.Error
	fs.Decide(func(a *decide.Acts) { e = decide.CheckObserve(cur, pre, what, a) })
	if e != nil {
		return e
	}
	if v := en.Host.CheckOperation(f, "observe"); v != nil {
		return decide.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
	}
	if !touch {
		return nil
	}
	fs.Decide(func(a *decide.Acts) { decide.Touch(cur, a) })
	if err := store.UpdateResource(q, cur); err != nil {
		return decide.Internal(err)
	}
	if err := store.AddCounter(q, "mutations", 1); err != nil {
		return decide.Internal(err)
	}
	return nil
}

// Prepare resolves prepare's target in the caller's tenant and mints (or
// refreshes) the prepareDigest binding the gated spec to it.
func (en *Engine) Prepare(q store.Q, tenant string, in *request.Request, g *decide.Gated, fence int64, fs *fault.Set) (string, *wire.Error) {
	cur, err := store.GetResource(q, tenant, in.Space, in.Ref.APIVersion, in.Ref.Kind, in.Name)
	if err != nil {
		return "", decide.Internal(err)
	}
	var uid, gen, t string
	var e *wire.Error
	fs.Decide(func(a *decide.Acts) {
		if uid, gen, e = decide.PrepareTarget(cur, in.Ref, fence, decide.Describe(in.Ref.Kind, in.Name, in.Space), a); e == nil {
			t = decide.PrepareTenant(tenant, a)
		}
	})
	if e != nil {
		return "", e
	}
	digest := decide.PrepareBinding(g.Digest, in.Ref, in.Name, t, in.Space, uid, gen)
	if err := store.MintPrepare(q, digest, t, en.Now().Unix()); err != nil {
		return "", decide.Internal(err)
	}
	return digest, nil
}
