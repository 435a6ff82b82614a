package lifecycle

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Outcome is what deciding a mutation produced.
type Outcome struct {
	Next    *store.Resource
	Created bool
	changed bool // stored state moved (counts as a mutation)
	pins    []store.Pin
	repin   bool // replace the stored pins with pins
}

// Changed reports whether the mutation moves stored state (a spec-identical
// re-apply does not).
func (o *Outcome) Changed() bool { return o.changed }

// Decide runs steps 12-15 of the order of checks against the store as it is
// now and computes the next state. g is the spec the request gated (nil at
// the commit of an accepted operation, which gates its stored spec again);
// atCommit also skips the prepareDigest step (the commit relies on the
// identity and fence re-check, docs/protocol.md#operations). route names the
// request in a claim refusal. It loads what each decision needs and asks it
// (decide.CheckMutation, decide.CheckPrepareSpend), then the checks that read
// other resources (related).
func (en *Engine) Decide(q store.Q, m *decide.Mutation, g *decide.Gated, atCommit bool, route string, fs *fault.Set) (*Outcome, *wire.Error) {
	f, ok := en.Host.Form(m.Ref)
	if !ok {
		return nil, decide.Refuse(wire.CodeFormUnknown, "Form %s is no longer installed on this host", m.Ref)
	}
	if g == nil {
		var e *wire.Error
		if g, e = en.Gate(f, m.Spec, m.Action, fs); e != nil {
			return nil, e
		}
	}
	cur, err := holder(q, m, fs)
	if err != nil {
		return nil, decide.Internal(err)
	}
	// The claim, the identity at commit, step 12 (target and fences) and 13
	// (capabilities of an existing resource).
	what := m.What()
	var e *wire.Error
	fs.Decide(func(a *decide.Acts) { e = decide.CheckMutation(m, f, g, cur, atCommit, route, what, a) })
	if e != nil {
		return nil, e
	}
	// Step 14: the prepareDigest binding.
	if m.Action == "apply" && !atCommit {
		if e := en.spendPrepare(q, m, cur, g, fs); e != nil {
			return nil, e
		}
	}
	// Step 15: what this host offers, relations, artifacts, the aggregate, claims.
	specChanged := cur != nil && cur.SpecDigest != g.Digest
	if e := en.supported(f, decide.ProfileOperation(m.Action, cur != nil, specChanged), g, what, fs); e != nil {
		return nil, e
	}
	pins, e, err := en.Related.Resolve(q, f, m.Tenant, m.Space, g.Spec, fs)
	if err != nil {
		return nil, decide.Internal(err)
	}
	if e != nil {
		return nil, e
	}
	curUID := ""
	if cur != nil {
		curUID = cur.UID
	}
	if e := en.Related.Semantic(q, f, m, g, pins, curUID, fs); e != nil {
		return nil, e
	}
	if m.Action == "import" {
		if e := nativeClaim(q, m, cur, fs); e != nil {
			return nil, e
		}
	}
	return en.next(m, g, cur, pins, fs)
}

// holder is the resource holding the mutation's name under its kind, or nil;
// under identity.kind-only a kind of the same name in another group holds it.
func holder(q store.Q, m *decide.Mutation, fs *fault.Set) (*store.Resource, error) {
	cur, err := store.GetResource(q, m.Tenant, m.Space, m.Ref.APIVersion, m.Ref.Kind, m.Name)
	if err != nil || cur != nil {
		return cur, err
	}
	if fs.On(fault.IdentityKindOnly) {
		return store.GetResourceOfKindInAnyGroup(q, m.Tenant, m.Space, m.Ref.Kind, m.Name)
	}
	return nil, nil
}

// next is step 16: the stored state the mutation leaves.
func (en *Engine) next(m *decide.Mutation, g *decide.Gated, cur *store.Resource, pins []store.Pin, fs *fault.Set) (*Outcome, *wire.Error) {
	if cur == nil {
		minted, gone := en.Mint("u-"), en.gone.get()
		var uid string
		fs.Decide(func(a *decide.Acts) { uid = decide.NewUID(minted, gone, a) })
		if g.Form.HasOutputs() {
			if _, err := render.Outputs(g.Form, uid, en.Host.P.Domain()); err != nil {
				return nil, decide.Refuse(wire.CodeUnsupportedCapability, "%s: this host (profile %q, endpoint domain %q) cannot assign the outputs %s declares, so nothing was created: %v; "+
					"give the profile an endpoints.domain whose names the outputSchema accepts, or leave %s out of it",
					m.What(), en.Host.P.Name, en.Host.P.Domain(), m.Ref, err, m.Ref.Kind)
			}
		}
		next := decide.NextCreate(m, g, uid, en.nowText())
		next.Pins = int64(len(pins))
		return &Outcome{Next: next, Created: true, changed: true, pins: pins, repin: true}, nil
	}
	var next store.Resource
	var changed bool
	fs.Decide(func(a *decide.Acts) { next, changed = decide.NextChange(cur, g, m.Action, m.NativeID, a) })
	o := &Outcome{Next: &next, changed: changed, pins: pins, repin: true}
	if fs.On(fault.RelationsNoRepin) {
		o.repin, o.pins = false, nil
	} else {
		next.Pins = int64(len(pins))
	}
	return o, nil
}

// supported: the profile offers the operation (op "" exercises none) and
// accepts the spec's values (docs/protocol.md#support).
func (en *Engine) supported(f *catalog.Form, op string, g *decide.Gated, what string, fs *fault.Set) *wire.Error {
	if v := en.Host.CheckOperation(f, op); op != "" && v != nil {
		if !fs.On(fault.SupportUnenforced) {
			return decide.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
		}
	}
	if v := en.Host.CheckSpec(f, g.Spec); v != nil {
		if !fs.On(fault.SupportUnenforced) {
			return decide.AtField(decide.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message), v.Field)
		}
	}
	return nil
}

// spendPrepare is step 14: review.prepareDigest binds this request, as
// minted for the tenant it binds (decide.PrepareTenant).
func (en *Engine) spendPrepare(q store.Q, m *decide.Mutation, cur *store.Resource, g *decide.Gated, fs *fault.Set) *wire.Error {
	var tenant string
	fs.Decide(func(a *decide.Acts) { tenant = decide.PrepareTenant(m.Tenant, a) })
	at, ok, err := store.PrepareMintedAt(q, m.PrepareDigest, tenant)
	if err != nil {
		return decide.Internal(err)
	}
	minted, now := decide.Minted{Found: ok, At: at}, en.Now()
	var e *wire.Error
	fs.Decide(func(a *decide.Acts) { e = decide.CheckPrepareSpend(m, cur, g, tenant, minted, now, en.PrepareLife, a) })
	return e
}

// nativeClaim is the nativeId claim of an import (docs/protocol.md#import):
// one live resource per nativeId per tenant, and a claim never changes.
func nativeClaim(q store.Q, m *decide.Mutation, cur *store.Resource, fs *fault.Set) *wire.Error {
	if fs.On(fault.ImportNoClaim) {
		m.NativeID = "" // nothing is claimed, nothing is checked
		return nil
	}
	if cur != nil && cur.NativeID != "" && cur.NativeID != m.NativeID {
		return decide.Refuse(wire.CodeImportConflict, "%s already claims another native object; a claim never changes (delete and re-import to adopt another)", m.What())
	}
	holder, err := store.NativeHolder(q, m.Tenant, m.NativeID)
	if err != nil {
		return decide.Internal(err)
	}
	if holder != "" && (cur == nil || holder != cur.UID) {
		return decide.Refuse(wire.CodeImportConflict, "the native object is already claimed by another resource of your tenant (uid %s); delete that resource first", holder)
	}
	if cur != nil && cur.NativeID == "" {
		if fs.On(fault.ImportFirstClaimUnrecorded) {
			m.NativeID = "" // checked, not recorded
		}
	}
	return nil
}

// Commit writes the decided state and its pins, re-renders what the mutation
// can affect, counts and journals it, and returns the representation served.
func (en *Engine) Commit(q store.Q, o *Outcome, fs *fault.Set) ([]byte, error) {
	n := o.Next
	// Derived rendering: the resource itself first — its revision moves only
	// if the mutation did not move it already.
	rd, err := en.Related.ReadyOf(q, n, o.pins, fs)
	if err != nil {
		return nil, err
	}
	rendered := related.ApplyReady(n, rd, en.nowText())
	if rendered && !o.Created && !o.changed {
		n.Revision++
	}
	switch {
	case o.Created:
		err = store.InsertResource(q, n)
	case o.changed || rendered:
		err = store.UpdateResource(q, n)
	}
	if err != nil {
		return nil, err
	}
	if o.repin {
		if err := store.ReplacePins(q, n.UID, o.pins, !o.Created); err != nil {
			return nil, err
		}
	}
	if err := en.Related.Recompute(q, n.Tenant, n.Space, n.APIVersion, n.Kind, n.Name, n.UID, en.nowText(), fs); err != nil {
		return nil, err
	}
	if o.changed {
		if err := store.AddCounter(q, "mutations", 1); err != nil {
			return nil, err
		}
	}
	journal.Append(q, en.Now(), "mutation", journal.Mutation{Tenant: n.Tenant, Space: n.Space,
		Kind: n.Kind, Name: n.Name, UID: n.UID, Generation: n.Generation,
		Revision: n.Revision, Created: o.Created, Changed: o.changed})
	rep, err := en.Renderer.Render(q, n, o.pins, fs)
	if err != nil {
		return nil, err
	}
	return rep.JSON(), nil
}
