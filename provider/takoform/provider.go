// Package takoform is the takoform OpenTofu provider: every resource type is derived
// from a Form catalog (docs/provider-design.md); no Go code names a Form kind.
package takoform

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// TypeName is the provider type name.
const TypeName = "takoform"

// Provider is the takoform provider over one catalog.
type Provider struct {
	version string
	lane    *wire.Lane // the lane of the catalog: the lane every request speaks
	kinds   []*kindType
	// data is the provider block's configuration once Configure has run; every
	// Resource the framework makes afterwards carries it.
	data atomic.Pointer[providerData]
	// testClient holds what tests override in each configuration's client: HTTP (e.g. a
	// short timeout) and SupportRetryWait; the zero value in a build
	testClient client.Config
}

// New builds the provider factory over cat: a catalog loaded by package catalog
// (catalog.Catalog is this type), or a model generated at build time such as
// catalog/embedded's. It fails when two kinds of the catalog produce the same resource
// type name, or a kind cannot be projected.
func New(version string, cat *model.Catalog) (func() provider.Provider, error) {
	p, err := newProvider(version, cat)
	if err != nil {
		return nil, err
	}
	// one Provider per server: each holds its own configuration, the kinds are shared
	return func() provider.Provider { return &Provider{version: p.version, lane: p.lane, kinds: p.kinds} }, nil
}

func newProvider(version string, cat *model.Catalog) (*Provider, error) {
	if cat == nil {
		return nil, fmt.Errorf("takoform provider: no catalog")
	}
	p := &Provider{version: version, lane: cat.Lane()}
	seen := map[string]string{}
	for _, k := range cat.Kinds() {
		kt, err := newKindType(cat, k)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[kt.model.typeName]; dup {
			return nil, fmt.Errorf("takoform provider: kind %s in group %s and kind %s in group %s both produce resource type %s; a catalog may not hold the same kind slug in two groups",
				k.Kind, k.APIVersion, k.Kind, other, kt.model.typeName)
		}
		seen[kt.model.typeName] = k.APIVersion
		p.kinds = append(p.kinds, kt)
	}
	return p, nil
}

func (p *Provider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

func (p *Provider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerSchema(p.lane)
}

func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	pd := configure(ctx, p.version, p.lane, p.testClient, req, resp)
	if pd == nil {
		return
	}
	p.data.Store(pd)
}

func (p *Provider) Resources(context.Context) []func() resource.Resource {
	out := make([]func() resource.Resource, 0, len(p.kinds))
	for _, kt := range p.kinds {
		out = append(out, func() resource.Resource { return &Resource{kind: kt, configured: p.data.Load()} })
	}
	return out
}

func (p *Provider) DataSources(context.Context) []func() datasource.DataSource { return nil }
