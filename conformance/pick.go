package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
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
	var candidates []*catalog.Form
	for _, pass := range []bool{true, false} {
		for _, f := range p.S.Forms {
			if standalone(f) == pass && len(f.Fixtures) > 0 && p.S.Offers(f, "create", "read", "delete") && fits(f) {
				candidates = append(candidates, f)
			}
		}
	}
	if len(candidates) == 0 {
		return nil, p.noneFits(need, fits)
	}
	var last error
	for i, f := range candidates {
		if i > 0 {
			p.world = nil // a fresh world: the refused attempt may have narrowed the shared one
		}
		b, err := p.buildOf(ctx, f)
		if err == nil {
			return b, nil
		}
		// A host refusing what its own profile narrowed (a handler it does not offer,
		// say) is right, and so is one whose limits leave a Form nothing to attach
		// to (specFor's not-applicable); the check moves on to the next Form that fits.
		if !declined(err) && classify(err) != StatusNotApplicable {
			return nil, err
		}
		last = err
	}
	return nil, notApplicable("every Form that is %s needs something the host's profile declines; the last refusal: %v", need, last)
}

// declined reports a Failure whose answer was unsupported_capability.
func declined(err error) bool {
	var f *Failure
	return errors.As(err, &f) && f.Code == wire.CodeUnsupportedCapability
}

// updatable is a Form the host lets update and that has a mutable field to change
// (in its canonical fixture, when it has one: a Form without fixtures is one no check
// can build, which build's not-applicable says).
func (p *Probe) updatable(f *catalog.Form) bool {
	if !p.S.Offers(f, "update") || !f.DeclaresUpdate {
		return false
	}
	var fixture map[string]any
	if len(f.Fixtures) > 0 && json.Unmarshal(f.Fixtures[0].Desired, &fixture) == nil {
		if _, _, ok := variant(f, f.Materialize(fixture), "conformance-variant", mutable(f)); !ok {
			return false
		}
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
	return nil, p.noneFits(need, fits)
}

// noneFits is the not-applicable of a check that found no installed Form that fits
// with conformance fixtures and create, read and delete offered, saying which is
// missing (unbuildable): a family may declare no fixtures (docs/catalog-rules.md),
// and a report that blamed the host for Forms it does install would send its
// reader to the wrong side (docs/guides/conformance.md#not-applicable).
func (p *Probe) noneFits(need string, fits func(*catalog.Form) bool) error {
	if why := p.unbuildable(fits); why != "" {
		return notApplicable("no installed Form that is %s can be built here: %s", need, why)
	}
	return notApplicable("the host installs no Form known to the runner's catalog that is %s%s", need, p.S.foreignNote())
}

// unbuildable says why the installed Forms that fit cannot be built: those that
// declare no conformance fixtures, and those the host does not offer create, read
// and delete of; "" when no installed Form fits.
func (p *Probe) unbuildable(fits func(*catalog.Form) bool) string {
	var bare, withheld []string
	for _, f := range p.S.Forms {
		switch {
		case !fits(f):
		case len(f.Fixtures) == 0:
			bare = named(bare, f)
		case !p.S.Offers(f, "create", "read", "delete"):
			withheld = named(withheld, f)
		}
	}
	var why []string
	if len(bare) > 0 {
		why = append(why, noFixtures(bare))
	}
	if len(withheld) > 0 {
		why = append(why, "the host does not offer create, read and delete of "+few(withheld))
	}
	return strings.Join(why, "; ")
}

// named appends f's kind and version to names unless they are there: one kind and
// version installed in two groups is named once.
func named(names []string, f *catalog.Form) []string {
	if name := f.Ref.Kind + " " + f.Ref.DefinitionVersion; !slices.Contains(names, name) {
		return append(names, name)
	}
	return names
}

// noFixtures says that the Forms named (kind and version) declare no conformance
// fixtures in the runner's catalog.
func noFixtures(names []string) string {
	verb := "declares"
	if len(names) > 1 {
		verb = "declare"
	}
	return fmt.Sprintf("%s %s no conformanceFixtures in the runner's catalog, so no check can build one", few(names), verb)
}

// few names at most four of names, then how many more there are.
func few(names []string) string {
	if len(names) <= 4 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:4], ", "), len(names)-4)
}

// standalone is a Form whose canonical fixture needs no other resource.
func standalone(f *catalog.Form) bool { return len(f.Relations) == 0 && !artifactAddressed(f) }

// pickSpec picks a Form with pick (simpleForm, importable, ...) and a valid spec for it:
// the opening of most lane checks.
func (p *Probe) pickSpec(ctx context.Context, pick func() (*catalog.Form, error)) (*catalog.Form, map[string]any, error) {
	f, err := pick()
	if err != nil {
		return nil, nil, err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, nil, err
	}
	return f, spec, nil
}

// simpleForm picks a standalone Form (the cheapest resource to create).
func (p *Probe) simpleForm() (*catalog.Form, error) {
	return p.pickForm("creatable without other resources", standalone)
}

// simpleResource creates a standalone resource and returns its Form, spec and
// state: a setup step of the check.
func (p *Probe) simpleResource(ctx context.Context, prefix string) (*catalog.Form, map[string]any, *Resource, error) {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := p.create(ctx, f, p.Name(prefix), spec)
	return f, spec, res, setup(settingUp(f), err)
}

// settingUp names the setup step creating a resource of f.
func settingUp(f *catalog.Form) string { return "setting up " + f.Ref.Kind }

// buildOf creates one resource of exactly f: a setup step of the check.
func (p *Probe) buildOf(ctx context.Context, f *catalog.Form) (*builtResource, error) {
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return nil, err
	}
	res, err := p.create(ctx, f, p.Name(slugPrefix(f)), spec)
	if err != nil {
		return nil, setup(settingUp(f), err)
	}
	return &builtResource{f: f, spec: spec, res: res}, nil
}
