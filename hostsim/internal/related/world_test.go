package related

import (
	"encoding/json"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// pinTo is a pin at pointer of relation on kind name uid, under the kind's
// first Form (what a resolve against a resource inserted by put records).
func (w *world) pinTo(pointer, relation, kind, name, uid string) store.Pin {
	ref := w.form(kind).Ref
	b, _ := json.Marshal(ref)
	return store.Pin{Pointer: pointer, Relation: relation, TargetAPIVersion: ref.APIVersion, TargetKind: kind,
		TargetName: name, TargetUID: uid, TargetRef: string(b)}
}

// put stores name of kind with uid, its fixture spec (or spec when not nil)
// and exactly the pins given, Ready True: a resource as a commit left it,
// without resolving anything.
func (w *world) put(kind, name, uid string, spec map[string]any, pins ...store.Pin) *store.Resource {
	w.t.Helper()
	f := w.form(kind)
	if spec == nil {
		_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	}
	jcs, _ := wire.CanonicalValue(spec)
	r := &store.Resource{Tenant: tenant, Space: space, APIVersion: f.Ref.APIVersion, Kind: kind, Name: name, UID: uid,
		DefVersion: f.Ref.DefinitionVersion, SchemaDigest: f.Ref.SchemaDigest, Generation: 1, Revision: 1, Spec: jcs,
		SpecDigest: wire.RawDigest(jcs), ReadyStatus: wire.StatusTrue, ReadyReason: wire.ReasonAvailable, Pins: int64(len(pins))}
	for i := range pins {
		pins[i].SourceUID = uid
	}
	w.write(func(q store.Q) error {
		if err := store.InsertResource(q, r); err != nil {
			return err
		}
		return store.ReplacePins(q, uid, pins, false)
	})
	return r
}

// mutation is a change of name of kind in the test space with the kind's fixture spec.
func (w *world) mutation(kind, name string) (*decide.Mutation, *decide.Gated) {
	f := w.form(kind)
	var spec map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	return &decide.Mutation{Tenant: tenant, Space: space, Ref: f.Ref, Name: name, Spec: spec}, &decide.Gated{Form: f, Spec: spec}
}

// deployed is worker "module-worker" (u-w) with version "v1" (u-v, declaring
// fetch, pinned to the worker plus extra pins) weighted 10000 by deployment
// "deploy" (u-d); it returns the deployment's pins.
func (w *world) deployed(extra ...store.Pin) []store.Pin {
	w.t.Helper()
	w.put("ModuleWorker", "module-worker", "u-w", nil)
	w.put("WorkerVersion", "v1", "u-v", nil, append([]store.Pin{w.pinTo("/worker", "/worker", "ModuleWorker", "module-worker", "u-w")}, extra...)...)
	return w.deployment("u-v")
}

// deployment stores "deploy" (u-d) weighting the version uid alone, and returns its pins.
func (w *world) deployment(version string) []store.Pin {
	w.t.Helper()
	pins := []store.Pin{w.pinTo("/versions/0/workerVersion", "/versions/*/workerVersion", "WorkerVersion", "v1", version),
		w.pinTo("/worker", "/worker", "ModuleWorker", "module-worker", "u-w")}
	w.put("WorkerDeployment", "deploy", "u-d", nil, pins...)
	return pins
}

// redeploy runs the deployment rules on deployment "deploy" changed in place.
func (w *world) redeploy(q store.Q, pins []store.Pin) *wire.Error {
	m, gd := w.mutation("WorkerDeployment", "deploy")
	return w.g.deploymentRules(q, m, gd, roles.deployment("WorkerDeployment"), pins, "u-d", nil)
}
