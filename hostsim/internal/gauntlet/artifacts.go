package gauntlet

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Artifact rules of apply, import and commit (docs/protocol.md#artifacts).

// bundleRules resolves a bundle resource's manifestDigest with the profile's
// maximumBundleBytes of the bundle's limit kind.
func (g *G) bundleRules(q store.Q, m *core.Mutation, gd *core.Gated, fs *fault.Set) *wire.Error {
	br := roles.bundle(m.Ref.Kind)
	if br == nil {
		return nil
	}
	digest, _ := valueAt(gd.Spec, br.ManifestDigest).(string)
	want, ok := wire.ManifestKindOf(m.Ref.Kind)
	if !ok {
		want = wire.WorkerBundleManifest
	}
	if _, err := artifact.ResolveManifest(ArtifactStore(q, fs), m.Tenant, br.ManifestDigest, digest, want, g.MaxBundleBytes(br.LimitKind)); err != nil {
		return prefixed(m.What(), Refusal(err))
	}
	return nil
}

// versionExports: every handler a version declares is exported by its
// bundle's main module.
func (g *G) versionExports(q store.Q, m *core.Mutation, gd *core.Gated, pins []store.Pin, fs *fault.Set) *wire.Error {
	vr := roles.version(m.Ref.Kind)
	if vr == nil {
		return nil
	}
	bp, ok := pinAt(pins, vr.Bundle)
	if !ok {
		return nil
	}
	if fs.On(fault.ArtifactsNoExportScan) {
		return nil
	}
	b, err := store.GetResourceByUID(q, bp.TargetUID)
	if err != nil {
		return core.Internal(err)
	}
	br := roles.bundle(bp.TargetKind)
	if b == nil || br == nil {
		return nil
	}
	var bspec map[string]any
	if err := json.Unmarshal(b.Spec, &bspec); err != nil {
		return core.Internal(err)
	}
	digest, _ := valueAt(bspec, br.ManifestDigest).(string)
	st := ArtifactStore(q, fs)
	man, err := artifact.ResolveBundle(st, m.Tenant, vr.Bundle, digest, g.MaxBundleBytes(vr.LimitKind))
	if err != nil {
		return prefixed(m.What(), Refusal(err))
	}
	exported, main, err := artifact.MainModuleExports(st, man)
	if err != nil {
		return prefixed(m.What(), Refusal(err))
	}
	var declared []string
	for _, h := range asList(valueAt(gd.Spec, vr.Handlers)) {
		if s, ok := h.(string); ok {
			declared = append(declared, s)
		}
	}
	desc := fmt.Sprintf("main module %q of %s %q (manifest %s)", main.Path, b.Kind, b.Name, man.Digest)
	if r := rules.CheckHandlersExported(vr.Handlers, declared, exported, desc); r != nil {
		return prefixed(m.What(), r.Wire())
	}
	return nil
}

// versionNamespace: one environment namespace per version.
func versionNamespace(f *catalog.Form, m *core.Mutation, gd *core.Gated) *wire.Error {
	vr := roles.version(m.Ref.Kind)
	if vr == nil {
		return nil
	}
	if r := rules.CheckEnvironmentNamespace(f, gd.Spec, vr.NamespaceFields); r != nil {
		return prefixed(m.What(), r.Wire())
	}
	return nil
}

// FlowStore is the artifact store the upload flow and blob HEAD use.
func FlowStore(q store.Q, fs *fault.Set) artifact.Store {
	if fs.On(fault.ArtifactsSharedHoldings) {
		return sharedHoldings{artifact.SQL{Q: q}}
	}
	return artifact.SQL{Q: q}
}

// ArtifactStore is the store manifest reads and bundle resolution use.
func ArtifactStore(q store.Q, fs *fault.Set) artifact.Store {
	if fs.On(fault.ArtifactsForget) {
		return forgetful{artifact.SQL{Q: q}}
	}
	return FlowStore(q, fs)
}
