package conformance

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func checkSupportEnforcedAtApply(ctx context.Context, p *Probe) error {
	var refs []wire.FormRef
	if len(p.S.Forms) > 0 {
		u := p.S.Forms[0].Ref
		u.SchemaDigest = flipDigest(u.SchemaDigest)
		refs = append(refs, u)
	}
	for _, f := range p.Cat.Forms() {
		if _, ok := p.S.Installed(f.Ref); !ok {
			refs = append(refs, f.Ref)
		}
	}
	for _, ref := range refs {
		var spec json.RawMessage = []byte("{}")
		if f, ok := p.Cat.Form(ref); ok && len(f.Fixtures) > 0 {
			spec = f.Fixtures[0].Desired
		}
		name := p.Name("excl")
		r, err := p.P.Do(ctx, p.applyReq(ref, name, spec, flipDigest(""), ""))
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeFormUnknown); err != nil {
			return failf("%s (apply under a FormRef the host does not install)", err)
		}
	}
	for _, f := range p.S.Forms {
		if err := p.enforceNarrowing(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// enforceNarrowing tries, for each narrowing f's profile advertises, one apply
// outside it and expects unsupported_capability.
func (p *Probe) enforceNarrowing(ctx context.Context, f *catalog.Form) error {
	prof := p.profile(f)
	if prof == nil || len(f.Fixtures) == 0 {
		return nil
	}
	var outside []struct {
		label string
		mod   func(map[string]any) bool
	}
	add := func(label string, mod func(map[string]any) bool) {
		outside = append(outside, struct {
			label string
			mod   func(map[string]any) bool
		}{label, mod})
	}
	for field, allowed := range sorted(prof.SupportedEnums) {
		fl, ok := f.Field(field)
		if !ok {
			continue
		}
		for _, v := range fl.Enum {
			if slices.Contains(allowed, v) {
				continue
			}
			v := v
			add("supportedEnums."+field+" without "+v, func(spec map[string]any) bool {
				switch fl.Kind {
				case catalog.FieldStringEnum:
					spec[field] = v
				case catalog.FieldStringSet, catalog.FieldStringList:
					cur, _ := spec[field].([]any)
					spec[field] = append(cur, v)
				default:
					return false
				}
				return true
			})
			break
		}
	}
	for field, rng := range sorted(prof.SupportedRanges) {
		if hi, ok := rng["maximum"].(float64); ok {
			add("supportedRanges."+field+" maximum", func(spec map[string]any) bool { spec[field] = hi + 1; return true })
		}
		if lo, ok := rng["minimum"].(float64); ok {
			add("supportedRanges."+field+" minimum", func(spec map[string]any) bool { spec[field] = lo - 1; return true })
		}
	}
	for _, o := range outside {
		spec, err := p.specFor(ctx, f)
		if err != nil {
			if classify(err) == StatusNotApplicable {
				continue
			}
			return err
		}
		if !o.mod(spec) || f.ValidateDesired(spec) != nil {
			continue // outside the schema too: the spec gate, not the profile, refuses it
		}
		name := p.Name("narrow")
		r, err := p.apply(ctx, p.P, f.Ref, name, spec, "")
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
			return failf("%s (%s %s)", err, f.Ref.Kind, o.label)
		}
	}
	if !p.S.Offers(f, "create") {
		// nothing of f can be made here, so no update can be tried; the create itself
		// must be refused
		spec, err := p.specFor(ctx, f)
		if err != nil {
			if classify(err) == StatusNotApplicable {
				return nil
			}
			return err
		}
		r, err := p.apply(ctx, p.P, f.Ref, p.Name("nocreate"), spec, "")
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
			return failf("%s (create of %s, whose profile omits create)", err, f.Ref.Kind)
		}
		return nil
	}
	if f.DeclaresUpdate && !p.S.Offers(f, "update") {
		b, err := p.buildOf(ctx, f)
		if err != nil {
			if classify(err) == StatusNotApplicable {
				return nil
			}
			return err
		}
		if alt, field, ok := variant(f, b.spec, p.Name("v"), mutable(f)); ok {
			r, err := p.apply(ctx, p.P, f.Ref, b.res.Metadata.Name, alt, "1")
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeUnsupportedCapability); err != nil {
				return failf("%s (update of %s, whose profile omits update, changing %s)", err, f.Ref.Kind, field)
			}
		}
	}
	return nil
}
