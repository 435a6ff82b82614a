package conformance

import (
	"context"

	"github.com/takokit/takokit/catalog"
)

// builtResource is a resource made in the check's world, with the spec it was made from.
type builtResource struct {
	f    *catalog.Form
	spec map[string]any
	res  *Resource
}

// build creates a resource of the first installed Form that fits, preferring
// standalone Forms, with everything it refers to.
func (p *Probe) build(ctx context.Context, need string, fits func(*catalog.Form) bool) (*builtResource, error) {
	f, err := p.pickForm(need, func(f *catalog.Form) bool { return standalone(f) && fits(f) })
	if err != nil {
		if f, err = p.pickForm(need, fits); err != nil {
			return nil, err
		}
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, err
	}
	res, err := p.create(ctx, f, p.Name(slugPrefix(f)), spec)
	if err != nil {
		return nil, err
	}
	return &builtResource{f: f, spec: spec, res: res}, nil
}

// updatable is a Form the host lets update and that has a mutable field to change.
func (p *Probe) updatable(f *catalog.Form) bool {
	if !p.S.Offers(f, "update") || !f.DeclaresUpdate || len(f.Fixtures) == 0 {
		return false
	}
	for _, fl := range f.Fields {
		if mutable(f)(fl) {
			return true
		}
	}
	return false
}

// changed builds an updated spec for b that changes one mutable field.
func (p *Probe) changed(b *builtResource) (map[string]any, string, error) {
	alt, field, ok := variant(b.f, b.spec, p.Name("v"), mutable(b.f))
	if !ok {
		return nil, "", notApplicable("no valid change of a mutable field of %s could be derived", b.f.Ref)
	}
	return alt, field, nil
}

// pickForm returns the first installed Form that fits, or NotApplicable naming need.
func (p *Probe) pickForm(need string, fits func(*catalog.Form) bool) (*catalog.Form, error) {
	for _, f := range p.S.Forms {
		if len(f.Fixtures) > 0 && p.S.Offers(f, "create", "read", "delete") && fits(f) {
			return f, nil
		}
	}
	return nil, notApplicable("the host installs no Form known to the runner's catalog that is %s%s", need, p.S.foreignNote())
}

// standalone is a Form whose canonical fixture needs no other resource.
func standalone(f *catalog.Form) bool { return len(f.Relations) == 0 && !artifactAddressed(f) }

// simpleForm picks a standalone Form (the cheapest resource to create).
func (p *Probe) simpleForm() (*catalog.Form, error) {
	return p.pickForm("creatable without other resources", standalone)
}

// simpleResource creates a standalone resource and returns its Form, spec and state.
func (p *Probe) simpleResource(ctx context.Context, prefix string) (*catalog.Form, map[string]any, *Resource, error) {
	f, err := p.simpleForm()
	if err != nil {
		return nil, nil, nil, err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := p.create(ctx, f, p.Name(prefix), spec)
	return f, spec, res, err
}

// buildOf creates one resource of exactly f.
func (p *Probe) buildOf(ctx context.Context, f *catalog.Form) (*builtResource, error) {
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, err
	}
	res, err := p.create(ctx, f, p.Name(slugPrefix(f)), spec)
	if err != nil {
		return nil, err
	}
	return &builtResource{f: f, spec: spec, res: res}, nil
}
