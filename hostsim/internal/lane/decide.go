package lane

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/gauntlet"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// outcome is what deciding a mutation produced.
type outcome struct {
	next    *store.Resource
	created bool
	changed bool // stored state moved (counts as a mutation)
	pins    []store.Pin
	repin   bool // replace the stored pins with pins
}

// decide runs steps 12-15 of the order of checks against the store as it is
// now and computes the next state. g is the spec the request gated (nil at
// the commit of an accepted operation, which gates its stored spec again);
// atCommit also skips the prepareDigest step (the commit relies on the
// identity and fence re-check, docs/protocol.md#operations).
func (c *call) decide(q store.Q, m *core.Mutation, g *core.Gated, atCommit bool) (*outcome, *wire.Error) {
	f, ok := c.s.Host.Form(m.Ref)
	if !ok {
		return nil, core.Refuse(wire.CodeFormUnknown, "Form %s is no longer installed on this host", m.Ref)
	}
	if g == nil {
		var e *wire.Error
		if g, e = c.gate(f, m.Spec, m.Action); e != nil {
			return nil, e
		}
	}
	cur, err := store.GetResource(q, m.Tenant, m.Space, m.Ref.APIVersion, m.Ref.Kind, m.Name)
	if err != nil {
		return nil, core.Internal(err)
	}
	what := m.What()
	if !m.IfNoneMatch {
		if e := core.CheckClaim(cur, c.routeName(), c.fs); e != nil {
			return nil, e
		}
	}
	if atCommit {
		if e := core.CheckCommitIdentity(cur, m.TargetUID, m.Ref, what, c.fs); e != nil {
			return nil, e
		}
	}
	// Step 12: target and fences.
	if m.IfNoneMatch {
		if e := core.CheckCreate(cur, m.ExpectedUID, what, c.fs); e != nil {
			return nil, e
		}
	} else {
		in := core.Intent{Fence: m.Fence, IfMatch: m.IfMatch}
		if e := core.CheckChange(cur, m.Ref, in, m.ExpectedUID, atCommit, what, c.fs); e != nil {
			return nil, e
		}
	}
	// Step 13: capability rules on an existing resource.
	specChanged := cur != nil && cur.SpecDigest != g.Digest
	if cur != nil {
		if e := core.CheckCapability(f, m.Action, cur, g, what, c.fs); e != nil {
			return nil, e
		}
	}
	// Step 14: the prepareDigest binding.
	if m.Action == "apply" && !atCommit {
		if e := c.spendPrepare(q, m, cur, g); e != nil {
			return nil, e
		}
	}
	// Step 15: what this host offers, relations, artifacts, the aggregate, claims.
	if e := c.supported(f, core.ProfileOperation(m.Action, cur != nil, specChanged), g, what); e != nil {
		return nil, e
	}
	pins, e := c.s.Gauntlet.Resolve(q, f, m.Tenant, m.Space, g.Spec, c.fs)
	if e != nil {
		return nil, e
	}
	curUID := ""
	if cur != nil {
		curUID = cur.UID
	}
	if e := c.s.Gauntlet.Semantic(q, f, m, g, pins, curUID, c.fs); e != nil {
		return nil, e
	}
	if m.Action == "import" {
		if e := c.nativeClaim(q, m, cur); e != nil {
			return nil, e
		}
	}
	return c.next(m, g, cur, pins)
}

// next is step 16: the stored state the mutation leaves.
func (c *call) next(m *core.Mutation, g *core.Gated, cur *store.Resource, pins []store.Pin) (*outcome, *wire.Error) {
	if cur == nil {
		uid := core.NewUID(c.s.mint("u-"), c.s.gone.get(), c.fs)
		if g.Form.HasOutputs() {
			if _, err := render.Outputs(g.Form, uid, c.s.Host.P.Domain()); err != nil {
				return nil, core.Refuse(wire.CodeUnsupportedCapability, "%s: this host cannot assign the outputs %s declares: %v",
					m.What(), m.Ref, err)
			}
		}
		next := core.NextCreate(m, g, uid, render.NowText(c.s.Now()))
		next.Pins = int64(len(pins))
		return &outcome{next: next, created: true, changed: true, pins: pins, repin: true}, nil
	}
	next, changed := core.NextChange(cur, g, m.Action, m.NativeID, c.fs)
	o := &outcome{next: &next, changed: changed, pins: pins, repin: true}
	if c.fs.On(fault.RelationsNoRepin) {
		o.repin, o.pins = false, nil
	} else {
		next.Pins = int64(len(pins))
	}
	return o, nil
}

// supported: the profile offers the operation (op "" exercises none) and
// accepts the spec's values (docs/protocol.md#support).
func (c *call) supported(f *catalog.Form, op string, g *core.Gated, what string) *wire.Error {
	if v := c.s.Host.CheckOperation(f, op); op != "" && v != nil {
		if !c.fs.On(fault.SupportUnenforced) {
			return core.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message)
		}
	}
	if v := c.s.Host.CheckSpec(f, g.Spec); v != nil {
		if !c.fs.On(fault.SupportUnenforced) {
			return core.AtField(core.Refuse(wire.CodeUnsupportedCapability, "%s: %s", what, v.Message), v.Field)
		}
	}
	return nil
}

// spendPrepare is step 14: review.prepareDigest binds this request.
func (c *call) spendPrepare(q store.Q, m *core.Mutation, cur *store.Resource, g *core.Gated) *wire.Error {
	tenant := core.PrepareTenant(m.Tenant, c.fs)
	at, ok, err := store.PrepareMintedAt(q, m.PrepareDigest, tenant)
	if err != nil {
		return core.Internal(err)
	}
	return core.CheckPrepareSpend(m, cur, g, tenant, core.Minted{Found: ok, At: at}, c.s.Now(), c.s.PrepareLife, c.fs)
}

// nativeClaim is the nativeId claim of an import (docs/protocol.md#import):
// one live resource per nativeId per tenant, and a claim never changes.
func (c *call) nativeClaim(q store.Q, m *core.Mutation, cur *store.Resource) *wire.Error {
	if c.fs.On(fault.ImportNoClaim) {
		m.NativeID = "" // nothing is claimed, nothing is checked
		return nil
	}
	if cur != nil && cur.NativeID != "" && cur.NativeID != m.NativeID {
		return core.Refuse(wire.CodeImportConflict, "%s already claims another native object; a claim never changes (delete and re-import to adopt another)", m.What())
	}
	holder, err := store.NativeHolder(q, m.Tenant, m.NativeID)
	if err != nil {
		return core.Internal(err)
	}
	if holder != "" && (cur == nil || holder != cur.UID) {
		return core.Refuse(wire.CodeImportConflict, "the native object is already claimed by another resource of your tenant (uid %s); delete that resource first", holder)
	}
	return nil
}

// commit writes the decided state and its pins, re-renders what the mutation
// can affect, counts and journals it, and returns the representation served.
func (c *call) commit(q store.Q, o *outcome) ([]byte, error) {
	n := o.next
	// Derived rendering: the resource itself first — its revision moves only
	// if the mutation did not move it already.
	rd, err := c.s.Gauntlet.ReadyOf(q, n, o.pins, c.fs)
	if err != nil {
		return nil, err
	}
	rendered := gauntlet.ApplyReady(n, rd, render.NowText(c.s.Now()))
	if rendered && !o.created && !o.changed {
		n.Revision++
	}
	switch {
	case o.created:
		err = store.InsertResource(q, n)
	case o.changed || rendered:
		err = store.UpdateResource(q, n)
	}
	if err != nil {
		return nil, err
	}
	if o.repin {
		if err := store.ReplacePins(q, n.UID, o.pins, !o.created); err != nil {
			return nil, err
		}
	}
	if err := c.s.Gauntlet.Recompute(q, n.Tenant, n.Space, n.APIVersion, n.Kind, n.Name, n.UID, render.NowText(c.s.Now()), c.fs); err != nil {
		return nil, err
	}
	if o.changed {
		if err := store.AddCounter(q, "mutations", 1); err != nil {
			return nil, err
		}
	}
	if err := journal.Append(q, c.s.Now(), "mutation", map[string]any{"tenant": n.Tenant, "space": n.Space,
		"kind": n.Kind, "name": n.Name, "uid": n.UID, "generation": n.Generation,
		"revision": n.Revision, "created": o.created, "changed": o.changed}); err != nil {
		return nil, err
	}
	rep, err := c.s.Renderer.Render(q, n, o.pins, c.fs)
	if err != nil {
		return nil, err
	}
	return rep.JSON(), nil
}

// etag is the ETag of a representation answer.
func (c *call) etag(r *store.Resource) string { return render.ETag(r, c.fs) }

// routeName is the route being served ("" for an admin-settled operation).
func (c *call) routeName() string {
	if c.rt == nil {
		return "mutation"
	}
	return c.rt.name
}
