package related

import (
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

// Bundle ceilings (docs/protocol.md#support, docs/decisions.md: bundle ceilings per
// manifest kind): a manifest is held to maximumBundleFiles and maximumBundleBytes of
// the Forms it is resolved for, the lowest of them winning, and to the portable
// ceilings of its kind where no profile states lower ones.

// ceilingsOf are the ceilings the profile states for forms, over the portable ones of k.
func (g *G) ceilingsOf(k *wire.ManifestKind, forms ...*catalog.Form) artifact.Ceilings {
	c := artifact.Portable(k)
	for _, f := range forms {
		if f == nil {
			continue
		}
		from := artifact.ProfileLimits(g.host.P.Name, f.Ref.Kind)
		if n, ok := g.host.Limit(f, profile.LimitBundleFiles); ok {
			c.LowerFiles(n, from)
		}
		if n, ok := g.host.Limit(f, profile.LimitBundleBytes); ok {
			c.LowerBytes(n, from)
		}
	}
	return c
}

// FormLimits holds a manifest resolved on apply, import or commit to the ceilings
// of forms: the Form that commits to it and the Form that references it.
func (g *G) FormLimits(forms ...*catalog.Form) artifact.Limits {
	return func(k *wire.ManifestKind) artifact.Ceilings { return g.ceilingsOf(k, forms...) }
}

// UploadLimits holds an upload, which names no Form, to the ceilings of every
// installed Form that commits to the manifest's kind: a manifest that passes can be
// referenced by any of them.
func (g *G) UploadLimits() artifact.Limits {
	return func(k *wire.ManifestKind) artifact.Ceilings {
		var forms []*catalog.Form
		for _, f := range g.host.Forms() {
			if mk, ok := wire.ManifestKindOf(f.Ref.Kind); ok && mk == k {
				forms = append(forms, f)
			}
		}
		return g.ceilingsOf(k, forms...)
	}
}
