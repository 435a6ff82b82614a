package lane

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/rules"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Artifact rules of apply, import and commit (host-api.md §17.4, §17.5, §15.5).

// bundleRules resolves a bundle resource's manifestDigest (§17.4) with the
// profile's maximumBundleBytes of the bundle's limit kind.
func (c *call) bundleRules(q store.Q, m *mutation, g *gated) *apiError {
	br := roles.bundle(m.Ref.Kind)
	if br == nil {
		return nil
	}
	digest, _ := valueAt(g.spec, br.ManifestDigest).(string)
	if _, err := artifact.ResolveBundle(c.artifactStore(q), m.Tenant, br.ManifestDigest, digest, c.s.maxBundleBytes(br.LimitKind)); err != nil {
		return c.prefixed(m, refusalOf(err))
	}
	return nil
}

// versionRules are §17.5 (every declared handler is exported by the bundle's
// main module) and §15.5 (one environment namespace) for a version resource.
func (c *call) versionRules(q store.Q, f *catalog.Form, m *mutation, g *gated, pins []store.Pin) *apiError {
	vr := roles.version(m.Ref.Kind)
	if vr == nil {
		return nil
	}
	if bp, ok := pinAt(pins, vr.Bundle); ok && !c.faultOn("artifacts.no-export-scan") {
		b, err := store.GetResourceByUID(q, bp.TargetUID)
		if err != nil {
			return internal(err)
		}
		if br := roles.bundle(bp.TargetKind); b != nil && br != nil {
			if e := c.exportsCover(q, m, g, vr, br, b); e != nil {
				return e
			}
		}
	}
	if c.faultOn("aggregate.unchecked") {
		return nil
	}
	if r := rules.CheckEnvironmentNamespace(f, g.spec, vr.NamespaceFields); r != nil {
		return c.prefixed(m, refusalOf(r))
	}
	return nil
}

func (c *call) exportsCover(q store.Q, m *mutation, g *gated, vr *versionRole, br *bundleRole, b *store.Resource) *apiError {
	var bspec map[string]any
	if err := json.Unmarshal(b.Spec, &bspec); err != nil {
		return internal(err)
	}
	digest, _ := valueAt(bspec, br.ManifestDigest).(string)
	st := c.artifactStore(q)
	man, err := artifact.ResolveBundle(st, m.Tenant, vr.Bundle, digest, c.s.maxBundleBytes(vr.LimitKind))
	if err != nil {
		return c.prefixed(m, refusalOf(err))
	}
	exported, main, err := artifact.MainModuleExports(st, man)
	if err != nil {
		return c.prefixed(m, refusalOf(err))
	}
	var declared []string
	for _, h := range asList(valueAt(g.spec, vr.Handlers)) {
		if s, ok := h.(string); ok {
			declared = append(declared, s)
		}
	}
	desc := fmt.Sprintf("main module %q of %s %q (manifest %s)", main.Path, b.Kind, b.Name, man.Digest)
	if r := rules.CheckHandlersExported(vr.Handlers, declared, exported, desc); r != nil {
		return c.prefixed(m, refusalOf(r))
	}
	return nil
}

// prefixed names the resource a rules refusal is about.
func (c *call) prefixed(m *mutation, e *apiError) *apiError {
	if e.code != "internal_error" {
		e.msg = fmt.Sprintf("%s %q in space %q: %s", m.Ref.Kind, m.Name, m.Space, e.msg)
	}
	return e
}
