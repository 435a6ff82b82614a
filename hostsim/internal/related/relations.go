package related

import (
	"encoding/json"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// target resolves (tenant, space, apiVersion, kind, name) into what the rules
// need to know about it; Found is false when nothing holds the name.
func (g *G) target(q store.Q, tenant, space, apiVersion, kind, name string, fs *fault.Set) (rules.Target, error) {
	t, err := store.GetResource(q, tenant, space, apiVersion, kind, name)
	if err != nil || t == nil {
		return rules.Target{}, err
	}
	out := rules.Target{Found: true, APIVersion: t.APIVersion, Kind: t.Kind, Name: t.Name, UID: t.UID, FormRef: decide.Ref(t)}
	if tf, ok := g.host.Cat.Form(decide.Ref(t)); ok {
		out.Provided = tf.Provided
	}
	if roles.worker(t.Kind) != nil {
		rd, err := g.readiness(q, t, fs)
		if err != nil {
			return out, err
		}
		if !rd.Ready {
			out.NotReady = rd.HostReason
		}
	}
	return out, nil
}

// Resolve resolves, verifies and pins every reference of spec under f for a
// resource of (tenant, space) (docs/protocol.md#relations: binding checks in
// table order, the first failure wins) and returns the pins a commit records.
// A refusal is the decision that the references do not resolve; err is the
// host's store failing while reading them, which decides nothing: the two
// come back apart so that no caller takes one for the other.
func (g *G) Resolve(q store.Q, f *catalog.Form, tenant, space string, spec map[string]any, fs *fault.Set) (pins []store.Pin, refusal *wire.Error, err error) {
	refs, r := rules.ExtractReferences(f, spec)
	if r != nil {
		return nil, r.Wire(), nil
	}
	for _, rf := range refs {
		t, err := g.target(q, tenant, space, rf.APIVersion, rf.Kind, rf.Name, fs)
		if err != nil {
			return nil, nil, err
		}
		if r := rules.VerifyReference(f, rf, t, g.contracts); r != nil {
			if !lapsed(r, rf, fs) && !contractLapsed(r, rf, t, fs) {
				return nil, r.Wire(), nil
			}
			if !t.Found {
				continue // relations.ignore-missing: nothing to pin
			}
		}
		pins = append(pins, storePin(rules.PinOf(rf, t)))
	}
	return pins, nil, nil
}

// lapsed: a fault lets a refused reference through — a missing target
// (relations.ignore-missing) or a failed binding check (bindings.unchecked).
func lapsed(r *rules.Refusal, rf rules.Reference, fs *fault.Set) bool {
	if r.Code == wire.CodeResourceNotFound {
		return fs.On(fault.RelationsIgnoreMissing)
	}
	if rf.Binding != nil {
		return fs.On(fault.BindingsUnchecked)
	}
	return false
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
