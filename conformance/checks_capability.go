package conformance

import (
	"context"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func checkRevisionRoleUpdate(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "of the revision role", func(f *catalog.Form) bool { return f.Role == "revision" })
	if err != nil {
		return err
	}
	name, ref := b.res.Metadata.Name, b.f.Ref
	r, err := p.apply(ctx, p.P, ref, name, b.spec, "1")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a spec-identical apply to an existing revision-role resource)", err)
	}
	if alt, field, ok := variant(b.f, b.spec, p.Name("v"), func(fl catalog.Field) bool { return fl.Kind != catalog.FieldReference }); ok {
		r, err := p.apply(ctx, p.P, ref, name, alt, "1")
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (changing %s of a revision-role resource)", err, field)
		}
	}
	return p.unchanged(ctx, b.res)
}

// unchanged fails unless res still reads at its generation and revision.
func (p *Probe) unchanged(ctx context.Context, res *Resource) error {
	now, err := p.readResource(ctx, res.Ref(), res.Metadata.Name)
	if err != nil {
		return err
	}
	if now.Metadata.Generation != res.Metadata.Generation || now.Metadata.Revision != res.Metadata.Revision || now.Metadata.UID != res.Metadata.UID {
		return failf("GET %s: refused requests moved the resource from generation %s revision %s to %s/%s", ResourcePath(res.Ref(), res.Metadata.Name), res.Metadata.Generation, res.Metadata.Revision, now.Metadata.Generation, now.Metadata.Revision)
	}
	return nil
}

func checkNoUpdateSpecChange(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "without update, not of the revision role, with desired fields", func(f *catalog.Form) bool {
		return !f.DeclaresUpdate && f.Role != "revision" && len(f.Fields) > 0
	})
	if err != nil {
		return err
	}
	name, ref := b.res.Metadata.Name, b.f.Ref
	alt, field, ok := variant(b.f, b.spec, p.Name("v"), anyField)
	if !ok {
		return notApplicable("no valid change of %s could be derived", ref)
	}
	r, err := p.apply(ctx, p.P, ref, name, alt, "1")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (changing %s of a Form without update)", err, field)
	}
	if err := p.unchanged(ctx, b.res); err != nil {
		return err
	}
	r, err = p.apply(ctx, p.P, ref, name, b.spec, "1")
	if err != nil {
		return err
	}
	same, err := p.settle(ctx, p.P, r, http.StatusOK)
	if err != nil {
		return failf("%v (a spec-identical re-apply of a Form without update is answered 200)", err)
	}
	if same.Metadata.Generation != "1" {
		return failf("%s: a spec-identical re-apply moved the generation to %q", r.What(), same.Metadata.Generation)
	}
	return nil
}

func checkImmutableField(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "with update and an immutable field", func(f *catalog.Form) bool {
		return f.DeclaresUpdate && p.S.Offers(f, "update") && len(f.Immutable) > 0
	})
	if err != nil {
		return err
	}
	alt, field, ok := variant(b.f, b.spec, p.Name("v"), immutableField(b.f))
	if !ok {
		return notApplicable("no valid change of an immutable field of %s could be derived", b.f.Ref)
	}
	r, err := p.apply(ctx, p.P, b.f.Ref, b.res.Metadata.Name, alt, "1")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (changing the immutable /%s)", err, field)
	}
	if !strings.Contains(r.Err.Message, "/"+field) {
		return failf("%s: the refusal must name the pointer /%s, got %q", r.What(), field, r.Err.Message)
	}
	return p.unchanged(ctx, b.res)
}
