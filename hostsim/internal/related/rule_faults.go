package related

import (
	"slices"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The fault-only parts of the worker, hostname and relation rules
// (docs/protocol.md#faults): each is asked where the rule it breaks is decided.

// claimScope lists the resources of kind a hostname claim is compared with: the
// tenant's, or under hostname.host-wide every tenant's.
func claimScope(q store.Q, tenant, kind string, fs *fault.Set) ([]*store.Resource, error) {
	if fs.On(fault.HostnameHostWide) {
		return store.ListKindEveryTenant(q, kind)
	}
	return store.ListKind(q, tenant, "", kind, true)
}

// manyPerTarget is attachment.many-per-target: the one-per-target claim is skipped.
func manyPerTarget(fs *fault.Set) bool {
	return fs.On(fault.AttachmentManyPerTarget)
}

// oneHop is deadletter.one-hop: the scan sees only the destination's own edge, so a
// cycle through more than two queues goes unseen.
func oneHop(live []rules.QueueEdge, queue, deadLetter string, fs *fault.Set) []rules.QueueEdge {
	i := slices.IndexFunc(live, func(e rules.QueueEdge) bool { return e.Queue == deadLetter && e.DeadLetter != queue })
	if i < 0 {
		return live
	}
	if !fs.On(fault.DeadLetterOneHop) {
		return live
	}
	return slices.DeleteFunc(slices.Clone(live), func(e rules.QueueEdge) bool { return e.Queue == deadLetter })
}

// storedVersionServes is gate.stored-versions: a version of worker w that declares
// handler admits the attachment though no deployment weights it.
func (g *G) storedVersionServes(q store.Q, w *store.Resource, handler string, fs *fault.Set) bool {
	holders, err := store.PinHolders(q, w.UID)
	if err != nil {
		return false
	}
	for _, h := range holders {
		vr := roles.version(h.Source.Kind)
		if vr == nil || h.Pin.Relation != vr.Worker {
			continue
		}
		declared, _ := g.spec(h.Source.Spec)[vr.Handlers[1:]].([]any)
		if slices.Contains(declared, any(handler)) {
			return fs.On(fault.GateStoredVersions)
		}
	}
	return false
}

// contractLapsed lets a refused target contract through (docs/protocol.md#relations):
// relations.unlisted-formref a target under a FormRef the reference does not list,
// relations.interface-unverified one whose Definition lacks the required Interface.
func contractLapsed(r *rules.Refusal, rf rules.Reference, t rules.Target, fs *fault.Set) bool {
	rel := rf.Relation
	if r.Code != wire.CodeInvalidArgument || rf.Binding != nil || !t.Found || t.APIVersion != rel.TargetAPIVersion || t.Kind != rel.TargetKind {
		return false
	}
	if len(rel.TargetFormRefs) > 0 {
		if !slices.Contains(rel.TargetFormRefs, t.FormRef) {
			return fs.On(fault.RelationsUnlistedFormRef)
		}
		return false
	}
	if rel.RequiredInterface != nil && !slices.Contains(t.Provided, *rel.RequiredInterface) {
		return fs.On(fault.RelationsInterfaceUnverified)
	}
	return false
}
