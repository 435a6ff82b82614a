package conformance

import (
	"context"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/synthetic"
)

// withSynthetic adopts the synthetic conformance definitions (catalog/synthetic) a
// host installs beside the runner's catalog (hostsim --conformance-probes): when
// the host serves a FormRef the catalog lacks and the catalog extended the same way
// holds it, the run probes with the extended catalog, so the checks that need a
// second definition version or a second group reach those Forms. Otherwise the
// catalog and surface are kept.
func withSynthetic(ctx context.Context, c *Client, cat *catalog.Catalog, s *Surface) (*catalog.Catalog, *Surface, error) {
	if len(s.Foreign) == 0 {
		return cat, s, nil
	}
	ext, err := synthetic.Extend(cat)
	if err != nil || ext == cat {
		return cat, s, nil // nothing to adopt; the foreign Forms stay foreign
	}
	adopt := false
	for _, ref := range s.Foreign {
		if _, ok := ext.Form(ref); ok {
			adopt = true
		}
	}
	if !adopt {
		return cat, s, nil
	}
	es, err := readSurface(ctx, c, ext)
	if err != nil {
		return nil, nil, err
	}
	return ext, es, nil
}
