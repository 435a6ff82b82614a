package lane

import (
	"encoding/json"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// contracts is what this host installs and implements, for rules.VerifyReference.
func (s *Server) contracts() rules.HostContracts {
	return rules.HostContracts{
		Catalog: s.Host.Cat,
		BindingImplemented: func(ref wire.BindingRef) bool {
			b, ok := s.Host.Binding(ref.Name, ref.Version)
			return ok && b.Ref == ref
		},
		InterfaceImplemented: s.Host.Implements,
	}
}

// target resolves (tenant, space, apiVersion, kind, name) into what the rules
// need to know about it; the stored resource is nil when nothing holds the name.
func (c *call) target(q store.Q, tenant, space, apiVersion, kind, name string) (rules.Target, *store.Resource, error) {
	t, err := store.GetResource(q, tenant, space, apiVersion, kind, name)
	if err != nil || t == nil {
		return rules.Target{}, nil, err
	}
	out := rules.Target{Found: true, APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, UID: t.UID, FormRef: ref(t)}
	if tf, ok := c.s.Host.Cat.Form(ref(t)); ok {
		out.Provided = tf.Provided
	}
	if roles.worker(t.Kind) != nil {
		rd, err := c.readiness(q, t)
		if err != nil {
			return out, t, err
		}
		if !rd.Ready {
			out.NotReady = rd.HostReason
		}
	}
	return out, t, nil
}

// resolveRelations resolves, verifies and pins every reference of the spec
// (host-api.md §14.3, binding checks in table order, first failure wins).
func (c *call) resolveRelations(q store.Q, f *catalog.Form, m *mutation, g *gated) ([]store.Pin, *apiError) {
	refs, r := rules.ExtractReferences(f, g.spec)
	if r != nil {
		return nil, refusalOf(r)
	}
	var pins []store.Pin
	for _, rf := range refs {
		t, _, err := c.target(q, m.Tenant, m.Space, rf.APIVersion, rf.Kind, rf.Name)
		if err != nil {
			return nil, internal(err)
		}
		if r := rules.VerifyReference(f, rf, t, c.s.contracts()); r != nil {
			if !c.skipRelationCheck(r, rf) {
				return nil, refusalOf(r)
			}
			if !t.Found {
				continue // relations.ignore-missing: nothing to pin
			}
		}
		pins = append(pins, storePin(rules.PinOf(rf, t)))
	}
	return pins, nil
}

// storePin converts a rules pin; the exact FormRef and BindingRef are kept as JSON.
func storePin(p rules.Pin) store.Pin {
	sp := store.Pin{Pointer: p.Pointer, Relation: p.Relation, TargetAPIVersion: p.TargetAPIVersion,
		TargetKind: p.TargetKind, TargetName: p.TargetName, TargetUID: p.TargetUID}
	b, _ := json.Marshal(p.TargetFormRef)
	sp.TargetRef = string(b)
	if p.BindingRef != nil {
		b, _ := json.Marshal(p.BindingRef)
		sp.BindingRef = string(b)
	}
	return sp
}

// pinRef reads a stored pin's exact target FormRef.
func pinRef(p store.Pin) wire.FormRef {
	var r wire.FormRef
	_ = json.Unmarshal([]byte(p.TargetRef), &r)
	return r
}

// pinAt returns the pin at a concrete pointer.
func pinAt(pins []store.Pin, pointer string) (store.Pin, bool) {
	for _, p := range pins {
		if p.Pointer == pointer {
			return p, true
		}
	}
	return store.Pin{}, false
}

// pinsOf returns the pins of a relation pattern, in pointer order as stored.
func pinsOf(pins []store.Pin, relation string) []store.Pin {
	var out []store.Pin
	for _, p := range pins {
		if p.Relation == relation {
			out = append(out, p)
		}
	}
	return out
}
