package related

import (
	"fmt"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The worker aggregate and attachment rules (docs/protocol.md#aggregate),
// decided on the pins just resolved (uids, never names) on apply, import and
// every 202 commit. curUID is the incarnation being changed ("" on a create).

// Semantic is the rest of step 15 of the order of checks after relations:
// artifact resolution, handler export and a version's static assets, the
// migration ledger's prefix proof (docs/protocol.md#migrations), then the
// aggregate and attachment rules.
func (g *G) Semantic(q store.Q, f *catalog.Form, m *decide.Mutation, gd *decide.Gated, pins []store.Pin, curUID string, fs *fault.Set) *wire.Error {
	if e := g.bundleRules(q, f, m, gd, fs); e != nil {
		return e
	}
	if e := g.versionExports(q, f, m, gd, pins, fs); e != nil {
		return e
	}
	if e := g.versionAssets(q, f, m, gd, pins, fs); e != nil {
		return e
	}
	if e := g.migrationRules(q, m, pins, fs); e != nil {
		return e
	}
	if fs.On(fault.AggregateUnchecked) {
		return nil
	}
	if e := versionNamespace(f, m, gd); e != nil {
		return e
	}
	if dr := roles.deployment(m.Ref.Kind); dr != nil {
		if e := g.deploymentRules(q, m, gd, dr, pins, curUID, fs); e != nil {
			return e
		}
	}
	if ar := roles.attachment(m.Ref.Kind); ar != nil {
		if e := g.attachmentRules(q, m, ar, pins, curUID, fs); e != nil {
			return e
		}
	}
	return g.hostnameClaims(q, f, m, gd, curUID, fs)
}

// deploymentRules are the deployment rules and the reverse gate.
func (g *G) deploymentRules(q store.Q, m *decide.Mutation, gd *decide.Gated, dr *deploymentRole, pins []store.Pin, curUID string, fs *fault.Set) *wire.Error {
	wp, ok := pinAt(pins, dr.Worker)
	if !ok {
		return nil
	}
	facts := rules.DeploymentFacts{WorkerPointer: dr.Worker, WorkerName: wp.TargetName, WorkerUID: wp.TargetUID}
	holders, err := store.PinHolders(q, wp.TargetUID)
	if err != nil {
		return decide.Internal(err)
	}
	for _, h := range holders {
		if h.Source.Kind == m.Ref.Kind && h.Pin.Relation == dr.Worker && h.Source.UID != curUID {
			facts.OtherDeployment = h.Source.Name
		}
	}
	if facts.Versions, err = g.weighted(q, dr, pins, gd.Spec, fs); err != nil {
		return decide.Internal(err)
	}
	if r := rules.CheckDeployment(facts); r != nil {
		return prefixed(m.What(), r.Wire())
	}
	deps, err := dependents(q, wp.TargetUID)
	if err != nil {
		return decide.Internal(err)
	}
	if r := rules.ReverseGate(parentPointer(parentPointer(dr.Versions)), wp.TargetName, facts.Versions, deps); r != nil {
		return prefixed(m.What(), r.Wire())
	}
	return nil
}

// dependents are the live resources needing worker uid w to serve a handler.
func dependents(q store.Q, w string) ([]rules.Dependent, error) {
	holders, err := store.PinHolders(q, w)
	if err != nil {
		return nil, err
	}
	var out []rules.Dependent
	for _, h := range holders {
		if ar := roles.attachment(h.Source.Kind); ar != nil && h.Pin.Relation == ar.Worker {
			out = append(out, rules.Dependent{Kind: h.Source.Kind, Name: h.Source.Name, Handler: ar.Handler, Pointer: h.Pin.Pointer})
		}
		if vr := roles.version(h.Source.Kind); vr != nil {
			for _, sb := range vr.ServiceBindings {
				if h.Pin.Relation == sb.Relation {
					out = append(out, rules.Dependent{Kind: h.Source.Kind, Name: h.Source.Name, Handler: sb.Handler, Pointer: h.Pin.Pointer})
				}
			}
		}
	}
	return out, nil
}

// attachmentRules are the attachment gate, one attachment per target uid
// (endpoints per worker, consumers per queue) and the dead-letter cycle.
func (g *G) attachmentRules(q store.Q, m *decide.Mutation, ar *attachmentRole, pins []store.Pin, curUID string, fs *fault.Set) *wire.Error {
	if wp, ok := pinAt(pins, ar.Worker); ok {
		w, err := store.GetResourceByUID(q, wp.TargetUID)
		if err != nil {
			return decide.Internal(err)
		}
		var active *rules.ActiveDeployment
		if w != nil {
			if active, err = g.activeDeployment(q, w, fs); err != nil {
				return decide.Internal(err)
			}
		}
		if r := rules.AttachmentGate(ar.Worker, wp.TargetName, ar.Handler, active); r != nil {
			if w == nil || !g.storedVersionServes(q, w, ar.Handler, fs) {
				return prefixed(m.What(), r.Wire())
			}
		}
	}
	if p, ok := pinAt(pins, ar.OnePer); ok { // no pin has the empty pointer: a kind without a one-per pointer finds none
		holders, err := store.PinHolders(q, p.TargetUID)
		if err != nil {
			return decide.Internal(err)
		}
		for _, h := range holders {
			if h.Source.Kind == m.Ref.Kind && h.Pin.Relation == ar.OnePer && h.Source.UID != curUID {
				if manyPerTarget(fs) {
					break
				}
				r := rules.ClaimTaken(ar.OnePer, fmt.Sprintf("the one %s of %s %q (uid %s)", m.Ref.Kind, p.TargetKind, p.TargetName, p.TargetUID),
					fmt.Sprintf("%s %q", h.Source.Kind, h.Source.Name))
				return prefixed(m.What(), r.Wire())
			}
		}
	}
	if dl := ar.DeadLetter; dl != nil {
		return deadLetter(q, m, dl, pins, curUID, fs)
	}
	return nil
}

func deadLetter(q store.Q, m *decide.Mutation, dl *deadLetterRole, pins []store.Pin, curUID string, fs *fault.Set) *wire.Error {
	qp, ok1 := pinAt(pins, dl.Queue)
	dp, ok2 := pinAt(pins, dl.DeadLetter)
	if !ok1 || !ok2 {
		return nil
	}
	names := map[string]string{qp.TargetUID: qp.TargetName, dp.TargetUID: dp.TargetName}
	others, err := store.ListKind(q, m.Tenant, m.Space, m.Ref.Kind, false)
	if err != nil {
		return decide.Internal(err)
	}
	var live []rules.QueueEdge
	for _, o := range others {
		if o.UID == curUID {
			continue
		}
		ops, err := store.PinsOf(q, o.UID)
		if err != nil {
			return decide.Internal(err)
		}
		oq, a := pinAt(ops, dl.Queue)
		od, b := pinAt(ops, dl.DeadLetter)
		if a && b {
			live = append(live, rules.QueueEdge{Queue: oq.TargetUID, DeadLetter: od.TargetUID})
			names[oq.TargetUID], names[od.TargetUID] = oq.TargetName, od.TargetName
		}
	}
	if r := rules.CheckDeadLetter(dl.DeadLetter, oneHop(live, qp.TargetUID, dp.TargetUID, fs), rules.QueueEdge{Queue: qp.TargetUID, DeadLetter: dp.TargetUID}, names); r != nil {
		return prefixed(m.What(), r.Wire())
	}
	return nil
}

// hostnameClaims is the tenant-wide custom-domain claim: no other live
// resource of the tenant, in any space, holds the same canonical hostname.
func (g *G) hostnameClaims(q store.Q, f *catalog.Form, m *decide.Mutation, gd *decide.Gated, curUID string, fs *fault.Set) *wire.Error {
	var claims []rules.Claim
	var r *rules.Refusal
	fs.Decide(func(a *decide.Acts) {
		var lax bool
		claims, r = rules.CheckSemanticFieldsLax(f, gd.Spec, decide.CronLax(a, &lax))
	})
	if r != nil {
		return prefixed(m.What(), r.Wire())
	}
	if len(claims) == 0 {
		return nil
	}
	for _, k := range g.host.Cat.Kinds() {
		fields := hostnameFields(k)
		if len(fields) == 0 {
			continue
		}
		list, err := claimScope(q, m.Tenant, k.Kind, fs)
		if err != nil {
			return decide.Internal(err)
		}
		for _, o := range list {
			if o.UID == curUID || o.APIVersion != k.APIVersion {
				continue
			}
			if o.Space != m.Space {
				if fs.On(fault.HostnameSpaceScoped) {
					continue
				}
			}
			spec := g.spec(o.Spec)
			for _, cl := range claims {
				for _, fw := range fields {
					if s, ok := spec[fw].(string); ok && rules.CanonicalHostname(s) == cl.Key {
						r := rules.ClaimTaken(cl.Pointer, fmt.Sprintf("hostname %q", cl.Key),
							fmt.Sprintf("%s %q in space %q of your tenant", o.Kind, o.Name, o.Space))
						return prefixed(m.What(), r.Wire())
					}
				}
			}
		}
	}
	return nil
}

// hostnameFields are the wire names of the hostname fields of any version of k.
func hostnameFields(k *catalog.Kind) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range k.Versions {
		for i := range f.Fields {
			if rules.FieldSemantic(&f.Fields[i]) == rules.SemanticHostname && !seen[f.Fields[i].Wire] {
				seen[f.Fields[i].Wire] = true
				out = append(out, f.Fields[i].Wire)
			}
		}
	}
	return out
}

// DeleteScans are the dependency scans of a delete (docs/protocol.md#relations,
// #aggregate): a deployment whose worker still has dependents, and any target
// another resource pins by uid, is not deleted (dependency_in_use). An
// out-of-band removal (the external-change probe) skips them.
func (g *G) DeleteScans(q store.Q, cur *store.Resource, external bool, fs *fault.Set) *wire.Error {
	if external {
		return nil
	}
	if fs.On(fault.DeleteSkipDependents) {
		return nil
	}
	if e := deploymentDeleteGate(q, cur); e != nil {
		return e
	}
	holders, err := store.PinsTo(q, cur.UID)
	if err != nil {
		return decide.Internal(err)
	}
	if len(holders) == 0 {
		return nil
	}
	var names []string
	for _, p := range holders {
		src, err := store.GetResourceByUID(q, p.SourceUID)
		if err != nil {
			return decide.Internal(err)
		}
		if src != nil {
			names = append(names, fmt.Sprintf("%s %q (%s)", src.Kind, src.Name, p.Pointer))
		}
	}
	slices.Sort(names) // the pins come in storage order; the message is the same every time
	return decide.Refuse(wire.CodeDependencyInUse, "%s is still referenced by %s; delete or change those first",
		decide.Describe(cur.Kind, cur.Name, cur.Space), strings.Join(names, ", "))
}

// deploymentDeleteGate: a deployment whose worker still has dependents is
// not deleted.
func deploymentDeleteGate(q store.Q, cur *store.Resource) *wire.Error {
	dr := roles.deployment(cur.Kind)
	if dr == nil {
		return nil
	}
	pins, err := store.PinsOf(q, cur.UID)
	if err != nil {
		return decide.Internal(err)
	}
	wp, ok := pinAt(pins, dr.Worker)
	if !ok {
		return nil
	}
	deps, err := dependents(q, wp.TargetUID)
	if err != nil {
		return decide.Internal(err)
	}
	if r := rules.DeploymentDeleteGate(cur.Name, wp.TargetName, deps); r != nil {
		return r.Wire()
	}
	return nil
}
