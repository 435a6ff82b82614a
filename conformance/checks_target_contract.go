package conformance

import (
	"context"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// misfit is a reference whose target kind the host also installs under a Definition
// the reference's contract does not admit (docs/protocol.md#relations).
type misfit struct {
	source *catalog.Form
	rel    catalog.Relation
	target *catalog.Form // installed, of the relation's kind, failing its contract
}

// misfits finds references whose kind has an installed Definition that fails the
// contract: bad reports whether a Form of the relation's kind fails it. Sources
// that are not attachments come first, so no deployment of the misfit is needed.
func (p *Probe) misfits(applies func(catalog.Relation) bool, bad func(catalog.Relation, *catalog.Form) bool) []misfit {
	var out []misfit
	for _, pass := range []bool{false, true} {
		for _, s := range p.S.Forms {
			if (s.Role == "attachment") != pass || len(s.Fixtures) == 0 || !p.S.Offers(s, "create", "read", "delete") {
				continue
			}
			for _, rel := range s.Relations {
				if rel.Binding != nil || len(splitPointer(rel.Pointer)) != 1 || !applies(rel) {
					continue
				}
				for _, t := range p.S.Forms {
					if t.Ref.APIVersion == rel.TargetAPIVersion && t.Ref.Kind == rel.TargetKind && len(t.Fixtures) > 0 && bad(rel, t) {
						out = append(out, misfit{source: s, rel: rel, target: t})
					}
				}
			}
		}
	}
	return out
}

// refusedMisfit makes a resource of m.target, builds m.source's spec around it and
// requires the apply to be refused invalid_argument naming the pointer; then a
// source in a world of its own (an admitted target) must be created.
func (p *Probe) refusedMisfit(ctx context.Context, m misfit, what string) error {
	p.world = nil
	t, err := p.makeFresh(ctx, m.target)
	if err != nil {
		return err
	}
	p.world.made[m.target.Ref.APIVersion+"/"+m.target.Ref.Kind] = t
	spec, err := p.specFor(ctx, m.source)
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(m.source))
	r, err := p.apply(ctx, p.P, m.source.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (%s %s naming a %s recorded under %s %s, %s)", err, m.source.Ref.Kind, m.rel.Pointer, t.Kind, m.target.Ref.DefinitionVersion, m.target.Ref.SchemaDigest, what)
	}
	if !strings.Contains(string(r.Body), m.rel.Pointer) {
		return failf("%s: the refusal must name the relation pointer %s: %s", r.What(), m.rel.Pointer, snippet(r.Body))
	}
	if err := p.notCreated(ctx, m.source.Ref, name, what); err != nil {
		return err
	}
	p.world = nil
	if _, err := p.buildOf(ctx, m.source); err != nil {
		return failf("%v (a %s whose %s names an admitted target is accepted)", err, m.source.Ref.Kind, m.rel.Pointer)
	}
	return nil
}

func checkTargetFormRefVerified(ctx context.Context, p *Probe) error {
	ms := p.misfits(func(r catalog.Relation) bool { return len(r.TargetFormRefs) > 0 },
		func(r catalog.Relation, t *catalog.Form) bool {
			return !slices.Contains(r.TargetFormRefs, t.Ref) && p.providesAsListed(r, t)
		})
	if len(ms) == 0 {
		return notApplicable("the host installs no Definition of a referenced kind outside the FormRefs its reference lists (the self-test proves this check on a test catalog with a second worker definition)%s", p.S.foreignNote())
	}
	return p.refusedMisfit(ctx, ms[0], "a FormRef the reference does not list")
}

func checkTargetInterfaceVerified(ctx context.Context, p *Probe) error {
	ms := p.misfits(func(r catalog.Relation) bool { return len(r.TargetFormRefs) == 0 && r.RequiredInterface != nil },
		func(r catalog.Relation, t *catalog.Form) bool { return !t.Provides(*r.RequiredInterface) })
	if len(ms) == 0 {
		return notApplicable("the host installs no Definition of a referenced kind that withholds the Interface its reference requires (the self-test proves this check on a test catalog with a second worker definition)%s", p.S.foreignNote())
	}
	return p.refusedMisfit(ctx, ms[0], "a Definition not providing "+ms[0].rel.RequiredInterface.Name)
}

// providesAsListed reports whether t provides every Interface the Forms r lists
// provide: a target that differs from a listed one only by not being listed, so
// its refusal can be the listing's alone (a Definition that also withholds an
// Interface — hostsim's synthetic ModuleWorker 0.2.0 — fails other rules first).
func (p *Probe) providesAsListed(r catalog.Relation, t *catalog.Form) bool {
	for _, ref := range r.TargetFormRefs {
		lf, ok := p.Cat.Form(ref)
		if !ok {
			continue
		}
		for _, in := range lf.Provided {
			if !t.Provides(in) {
				return false
			}
		}
	}
	return true
}
