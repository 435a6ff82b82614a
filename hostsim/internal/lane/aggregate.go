package lane

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The worker aggregate and attachment rules (host-api.md §15), decided on the
// pins just resolved (uids, never names) on apply, import and every 202 commit.
// curUID is the incarnation being changed ("" on a create).

// semantic is the rest of §5.4 step 15 after relations: artifact resolution
// and handler export (§17), then the aggregate and attachment rules (§15).
func (c *call) semantic(q store.Q, f *catalog.Form, m *mutation, g *gated, pins []store.Pin, curUID string) *apiError {
	if e := c.bundleRules(q, m, g); e != nil {
		return e
	}
	if e := c.versionRules(q, f, m, g, pins); e != nil {
		return e
	}
	return c.aggregateRules(q, f, m, g, pins, curUID)
}

func (c *call) aggregateRules(q store.Q, f *catalog.Form, m *mutation, g *gated, pins []store.Pin, curUID string) *apiError {
	if c.faultOn("aggregate.unchecked") {
		return nil
	}
	if dr := roles.deployment(m.Ref.Kind); dr != nil {
		if e := c.deploymentRules(q, m, g, dr, pins, curUID); e != nil {
			return e
		}
	}
	if ar := roles.attachment(m.Ref.Kind); ar != nil {
		if e := c.attachmentRules(q, m, ar, pins, curUID); e != nil {
			return e
		}
	}
	return c.hostnameClaims(q, f, m, g, curUID)
}

// deploymentRules are §15.1 and the reverse gate of §15.3.
func (c *call) deploymentRules(q store.Q, m *mutation, g *gated, dr *deploymentRole, pins []store.Pin, curUID string) *apiError {
	wp, ok := pinAt(pins, dr.Worker)
	if !ok {
		return nil
	}
	facts := rules.DeploymentFacts{WorkerPointer: dr.Worker, WorkerName: wp.TargetName, WorkerUID: wp.TargetUID}
	holders, err := store.PinHolders(q, wp.TargetUID)
	if err != nil {
		return internal(err)
	}
	for _, h := range holders {
		if h.Source.Kind == m.Ref.Kind && h.Pin.Relation == dr.Worker && h.Source.UID != curUID {
			facts.OtherDeployment = h.Source.Name
		}
	}
	if facts.Versions, err = c.weighted(q, dr, pins, g.spec); err != nil {
		return internal(err)
	}
	if r := rules.CheckDeployment(facts); r != nil {
		return c.prefixed(m, refusalOf(r))
	}
	deps, err := c.dependents(q, wp.TargetUID)
	if err != nil {
		return internal(err)
	}
	if r := rules.ReverseGate(parentPointer(parentPointer(dr.Versions)), wp.TargetName, facts.Versions, deps); r != nil {
		return c.prefixed(m, refusalOf(r))
	}
	return nil
}

// dependents are the live resources needing worker uid w to serve a handler (§15.3).
func (c *call) dependents(q store.Q, w string) ([]rules.Dependent, error) {
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

// attachmentRules are the attachment gate (§15.2), one attachment per target
// uid (endpoints per worker, consumers per queue) and the dead-letter cycle (§15.9).
func (c *call) attachmentRules(q store.Q, m *mutation, ar *attachmentRole, pins []store.Pin, curUID string) *apiError {
	if wp, ok := pinAt(pins, ar.Worker); ok {
		w, err := store.GetResourceByUID(q, wp.TargetUID)
		if err != nil {
			return internal(err)
		}
		var active *rules.ActiveDeployment
		if w != nil {
			if active, err = c.activeDeployment(q, w); err != nil {
				return internal(err)
			}
		}
		if r := rules.AttachmentGate(ar.Worker, wp.TargetName, ar.Handler, active); r != nil {
			return c.prefixed(m, refusalOf(r))
		}
	}
	if p, ok := pinAt(pins, ar.OnePer); ar.OnePer != "" && ok {
		holders, err := store.PinHolders(q, p.TargetUID)
		if err != nil {
			return internal(err)
		}
		for _, h := range holders {
			if h.Source.Kind == m.Ref.Kind && h.Pin.Relation == ar.OnePer && h.Source.UID != curUID {
				r := rules.ClaimTaken(ar.OnePer, fmt.Sprintf("the one %s of %s %q (uid %s)", m.Ref.Kind, p.TargetKind, p.TargetName, p.TargetUID),
					fmt.Sprintf("%s %q", h.Source.Kind, h.Source.Name))
				return c.prefixed(m, refusalOf(r))
			}
		}
	}
	if dl := ar.DeadLetter; dl != nil {
		return c.deadLetter(q, m, dl, pins, curUID)
	}
	return nil
}

func (c *call) deadLetter(q store.Q, m *mutation, dl *deadLetterRole, pins []store.Pin, curUID string) *apiError {
	qp, ok1 := pinAt(pins, dl.Queue)
	dp, ok2 := pinAt(pins, dl.DeadLetter)
	if !ok1 || !ok2 {
		return nil
	}
	names := map[string]string{qp.TargetUID: qp.TargetName, dp.TargetUID: dp.TargetName}
	others, err := store.ListKind(q, m.Tenant, m.Space, m.Ref.Kind, false)
	if err != nil {
		return internal(err)
	}
	var live []rules.QueueEdge
	for _, o := range others {
		if o.UID == curUID {
			continue
		}
		ops, err := store.PinsOf(q, o.UID)
		if err != nil {
			return internal(err)
		}
		oq, a := pinAt(ops, dl.Queue)
		od, b := pinAt(ops, dl.DeadLetter)
		if a && b {
			live = append(live, rules.QueueEdge{Queue: oq.TargetUID, DeadLetter: od.TargetUID})
			names[oq.TargetUID], names[od.TargetUID] = oq.TargetName, od.TargetName
		}
	}
	if r := rules.CheckDeadLetter(dl.DeadLetter, live, rules.QueueEdge{Queue: qp.TargetUID, DeadLetter: dp.TargetUID}, names); r != nil {
		return c.prefixed(m, refusalOf(r))
	}
	return nil
}

// hostnameClaims is the tenant-wide custom-domain claim (§15.7): no other live
// resource of the tenant, in any space, holds the same canonical hostname.
func (c *call) hostnameClaims(q store.Q, f *catalog.Form, m *mutation, g *gated, curUID string) *apiError {
	claims, r := rules.CheckSemanticFields(f, g.spec)
	if r != nil {
		return c.prefixed(m, refusalOf(r))
	}
	if len(claims) == 0 {
		return nil
	}
	for _, k := range c.s.Host.Cat.Kinds() {
		fields := hostnameFields(k)
		if len(fields) == 0 {
			continue
		}
		list, err := store.ListKind(q, m.Tenant, "", k.Kind, true)
		if err != nil {
			return internal(err)
		}
		for _, o := range list {
			if o.UID == curUID || o.APIVersion != k.APIVersion {
				continue
			}
			var spec map[string]any
			_ = json.Unmarshal(o.Spec, &spec)
			for _, cl := range claims {
				for _, fw := range fields {
					if s, ok := spec[fw].(string); ok && rules.CanonicalHostname(s) == cl.Key {
						r := rules.ClaimTaken(cl.Pointer, fmt.Sprintf("hostname %q", cl.Key),
							fmt.Sprintf("%s %q in space %q of your tenant", o.Kind, o.Name, o.Space))
						return c.prefixed(m, refusalOf(r))
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

// deploymentDeleteGate is §15.3: a deployment whose worker still has
// dependents is not deleted (dependency_in_use).
func (c *call) deploymentDeleteGate(q store.Q, cur *store.Resource) *apiError {
	dr := roles.deployment(cur.Kind)
	if dr == nil {
		return nil
	}
	pins, err := store.PinsOf(q, cur.UID)
	if err != nil {
		return internal(err)
	}
	wp, ok := pinAt(pins, dr.Worker)
	if !ok {
		return nil
	}
	deps, err := c.dependents(q, wp.TargetUID)
	if err != nil {
		return internal(err)
	}
	if r := rules.DeploymentDeleteGate(cur.Name, wp.TargetName, deps); r != nil {
		return refusalOf(r)
	}
	return nil
}
