package related

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Artifact rules of apply, import and commit (docs/protocol.md#artifacts).

// bundleRules resolves a bundle resource's manifestDigest: the manifest kind its
// Form commits to, under that Form's ceilings.
func (g *G) bundleRules(q store.Q, f *catalog.Form, m *decide.Mutation, gd *decide.Gated, fs *fault.Set) *wire.Error {
	br := roles.bundle(m.Ref.Kind)
	if br == nil {
		return nil
	}
	mk, _ := wire.ManifestKindOf(m.Ref.Kind) // every bundle role has one (mustRoles)
	digest, _ := valueAt(gd.Spec, br.ManifestDigest).(string)
	if _, err := artifact.ResolveBundle(ArtifactStore(q, fs), caller(m, fs), br.ManifestDigest, digest, mk, g.FormLimits(f)); err != nil {
		return prefixed(m.What(), Refusal(err))
	}
	return nil
}

func caller(m *decide.Mutation, fs *fault.Set) artifact.Caller {
	return artifact.Caller{Tenant: m.Tenant, Faults: fs}
}

// pinned is a bundle a source pins: the stored resource and its resolved manifest.
type pinned struct {
	Resource *store.Resource
	Manifest *artifact.Manifest
}

// pinnedBundle resolves the manifest of the bundle pin bp names, by uid, for the
// source Form f (the ceilings of the bundle's Form and of f); nil when the pin
// names no stored bundle.
func (g *G) pinnedBundle(q store.Q, f *catalog.Form, m *decide.Mutation, bp store.Pin, fs *fault.Set) (*pinned, *wire.Error) {
	b, err := store.GetResourceByUID(q, bp.TargetUID)
	if err != nil {
		return nil, decide.Internal(err)
	}
	br := roles.bundle(bp.TargetKind)
	if b == nil || br == nil {
		return nil, nil
	}
	var bspec map[string]any
	if err := json.Unmarshal(b.Spec, &bspec); err != nil {
		return nil, decide.Internal(err)
	}
	mk, _ := wire.ManifestKindOf(b.Kind)
	bf, _ := g.host.Form(decide.Ref(b))
	digest, _ := valueAt(bspec, br.ManifestDigest).(string)
	man, err := artifact.ResolveBundle(ArtifactStore(q, fs), caller(m, fs), bp.Pointer, digest, mk, g.FormLimits(bf, f))
	if err != nil {
		return nil, prefixed(m.What(), Refusal(err))
	}
	return &pinned{Resource: b, Manifest: man}, nil
}

// versionExports: every handler a version declares is exported by its
// bundle's main module.
func (g *G) versionExports(q store.Q, f *catalog.Form, m *decide.Mutation, gd *decide.Gated, pins []store.Pin, fs *fault.Set) *wire.Error {
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
	b, e := g.pinnedBundle(q, f, m, bp, fs)
	if b == nil {
		return e // refused (pinnedBundle answers no bundle with its refusal), or no stored bundle
	}
	st := ArtifactStore(q, fs)
	exported, main, err := artifact.MainModuleExports(st, b.Manifest)
	if err != nil {
		return prefixed(m.What(), Refusal(err))
	}
	var declared []string
	for _, h := range asList(valueAt(gd.Spec, vr.Handlers)) {
		if s, ok := h.(string); ok {
			declared = append(declared, s)
		}
	}
	desc := fmt.Sprintf("main module %q of %s %q (manifest %s)", main.Path, b.Resource.Kind, b.Resource.Name, b.Manifest.Digest)
	if r := rules.CheckHandlersExported(vr.Handlers, declared, exported, desc); r != nil {
		return prefixed(m.What(), r.Wire())
	}
	return nil
}

// versionNamespace: one environment namespace per version.
func versionNamespace(f *catalog.Form, m *decide.Mutation, gd *decide.Gated) *wire.Error {
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
