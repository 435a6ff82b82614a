package conformance

import (
	"context"
	"net/http"
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

func checkUpdateGenerationFence(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "updatable with a mutable field", p.updatable)
	if err != nil {
		return err
	}
	alt, _, err := p.changed(b)
	if err != nil {
		return err
	}
	name, ref := b.res.Metadata.Name, b.f.Ref
	pr, digest, err := p.prepare(ctx, p.P, ref, name, alt, "1")
	if err != nil {
		return err
	}
	if err := expectStatus(pr, http.StatusOK); err != nil {
		return err
	}
	bad := map[string]Req{}
	noFence := p.applyReq(ref, name, alt, digest, "1")
	delete(noFence.Header, "Takoform-Expected-Generation")
	bad["no fence and no If-None-Match"] = noFence
	nonCanon := p.applyReq(ref, name, alt, digest, "01")
	bad["a non-canonical fence 01"] = nonCanon
	disagree := p.applyReq(ref, name, alt, digest, "1")
	disagree.Body = body(ref, name, p.Space, alt, map[string]any{"review": map[string]any{"prepareDigest": digest}, "expectedGeneration": "2"})
	bad["header fence 1 with body expectedGeneration 2"] = disagree
	for label, req := range bad {
		r, err := p.P.Do(ctx, req)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (%s)", err, label)
		}
	}
	r, err := p.P.Do(ctx, p.applyReq(ref, name, alt, digest, "1"))
	if err != nil {
		return err
	}
	res, err := p.settle(ctx, p.P, r, http.StatusOK)
	if err != nil {
		return err
	}
	if res.Metadata.Generation != "2" || res.Metadata.UID != b.res.Metadata.UID {
		return failf("%s: the fenced update answered generation %q uid %q, expected generation \"2\" and the same uid %q", r.What(), res.Metadata.Generation, res.Metadata.UID, b.res.Metadata.UID)
	}
	return nil
}

func checkStaleGeneration(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "stalegen")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "1")
	if err != nil {
		return err
	}
	for label, send := range map[string]func() (*Resp, error){
		"apply":   func() (*Resp, error) { return p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, "2")) },
		"observe": func() (*Resp, error) { return p.observe(ctx, p.P, f.Ref, name, "2", nil) },
		"delete":  func() (*Resp, error) { return p.del(ctx, p.P, f.Ref, name, "2", nil) },
		"prepare": func() (*Resp, error) { r, _, err := p.prepare(ctx, p.P, f.Ref, name, spec, "2"); return r, err },
	} {
		r, err := send()
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
			return failf("%s (%s with the stale fence 2 on generation 1)", err, label)
		}
	}
	now, err := p.readResource(ctx, f.Ref, name)
	if err != nil {
		return err
	}
	if now.Metadata.Revision != a.Metadata.Revision || now.Metadata.Generation != "1" {
		return failf("GET %s: refused stale requests moved the resource to generation %s revision %s", ResourcePath(f.Ref, name), now.Metadata.Generation, now.Metadata.Revision)
	}
	return nil
}

func checkRevisionETag(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "etag")
	if err != nil {
		return err
	}
	if a.ETag != `"1"` {
		return failf("PUT %s: create ETag %q, expected \"1\"", ResourcePath(f.Ref, a.Metadata.Name), a.ETag)
	}
	if _, err := p.readResource(ctx, f.Ref, a.Metadata.Name); err != nil {
		return err
	}
	r, err := p.observe(ctx, p.P, f.Ref, a.Metadata.Name, "1", nil)
	if err != nil {
		return err
	}
	if _, err := observed(r); err != nil {
		return err
	}
	if !p.S.Probes {
		return nil
	}
	r, err = p.observe(ctx, p.P, f.Ref, a.Metadata.Name, "1", map[string]string{ProbeHeader: "touch-status"})
	if err != nil {
		return err
	}
	t, err := observed(r)
	if err != nil {
		return err
	}
	if t.Metadata.Revision != "2" {
		return failf("%s: a host-side status change moved the revision to %q, expected \"2\"", r.What(), t.Metadata.Revision)
	}
	_, err = p.readResource(ctx, f.Ref, a.Metadata.Name)
	return err
}

// observed decodes an observe answer ({"resource": …}) and checks its ETag.
func observed(r *Resp) (*Resource, error) {
	if err := expectStatus(r, http.StatusOK); err != nil {
		return nil, err
	}
	var env struct {
		Resource rawJSON `json:"resource,required"`
	}
	if err := wire.DecodeStrict(r.Body, &env); err != nil {
		return nil, failf("%s: observe answer is not {\"resource\": …}: %v", r.What(), err)
	}
	inner := *r
	inner.Body = env.Resource
	return decodeResource(&inner)
}

func checkObserveFence(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "obs")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	for fence, code := range map[string]wire.Code{"": wire.CodeInvalidArgument, "01": wire.CodeInvalidArgument, "+1": wire.CodeInvalidArgument, "2": wire.CodeGenerationConflict} {
		h := map[string]string{"Idempotency-Key": newKey()}
		if fence != "" {
			h["Takoform-Expected-Generation"] = fence
		}
		r, err := p.P.Do(ctx, Req{Method: http.MethodPost, Target: ResourcePath(f.Ref, name) + "/observe" + exactQuery(p.Space, f.Ref), Header: h})
		if err != nil {
			return err
		}
		if err := expectCode(r, code); err != nil {
			return failf("%s (observe with fence %q)", err, fence)
		}
	}
	r, err := p.observe(ctx, p.P, f.Ref, name, "1", nil)
	if err != nil {
		return err
	}
	o, err := observed(r)
	if err != nil {
		return err
	}
	if o.Metadata.Generation != "1" {
		return failf("%s: observe answered generation %q, expected the fence \"1\"", r.What(), o.Metadata.Generation)
	}
	return nil
}

func checkSpecChangeBumpsGeneration(ctx context.Context, p *Probe) error {
	b, err := p.build(ctx, "updatable with a mutable field", p.updatable)
	if err != nil {
		return err
	}
	alt, field, err := p.changed(b)
	if err != nil {
		return err
	}
	u, err := p.update(ctx, b.res, alt)
	if err != nil {
		return err
	}
	what := "PUT " + ResourcePath(b.f.Ref, b.res.Metadata.Name)
	if u.Metadata.Generation != "2" || u.Metadata.Revision != "2" || u.Status.ObservedGeneration != "2" {
		return failf("%s: changing %s answered generation %q revision %q observedGeneration %q, expected \"2\" for all", what, field, u.Metadata.Generation, u.Metadata.Revision, u.Status.ObservedGeneration)
	}
	same, err := p.update(ctx, u, alt)
	if err != nil {
		return err
	}
	if same.Metadata.Generation != "2" || same.Metadata.Revision != "2" {
		return failf("%s: a spec-identical re-apply moved generation/revision to %q/%q, expected both unchanged at \"2\"", what, same.Metadata.Generation, same.Metadata.Revision)
	}
	return nil
}

func checkStatusChangeBumpsRevision(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "touch")
	if err != nil {
		return err
	}
	r, err := p.observe(ctx, p.P, f.Ref, a.Metadata.Name, "1", map[string]string{ProbeHeader: "touch-status"})
	if err != nil {
		return err
	}
	t, err := observed(r)
	if err != nil {
		return err
	}
	if t.Metadata.Generation != "1" || t.Metadata.Revision != "2" {
		return failf("%s: a host-side status change answered generation %q revision %q, expected generation \"1\" and revision \"2\"", r.What(), t.Metadata.Generation, t.Metadata.Revision)
	}
	now, err := p.readResource(ctx, f.Ref, a.Metadata.Name)
	if err != nil {
		return err
	}
	if now.Metadata.Generation != "1" || now.Metadata.Revision != "2" {
		return failf("GET %s: after the status change generation %q revision %q, expected \"1\" and \"2\"", ResourcePath(f.Ref, a.Metadata.Name), now.Metadata.Generation, now.Metadata.Revision)
	}
	return nil
}

func checkDeleteGenerationFence(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "delgen")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	r, err := p.P.Do(ctx, Req{Method: http.MethodDelete, Target: ResourcePath(f.Ref, name) + exactQuery(p.Space, f.Ref),
		Header: map[string]string{"Idempotency-Key": newKey()}})
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (delete without a generation fence)", err)
	}
	r, err = p.del(ctx, p.P, f.Ref, name, "2", nil)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
		return failf("%s (delete with the stale fence 2)", err)
	}
	if _, err := p.readResource(ctx, f.Ref, name); err != nil {
		return err
	}
	r, err = p.del(ctx, p.P, f.Ref, name, "1", nil)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusNoContent); err != nil {
		return err
	}
	if len(r.Body) != 0 || r.Header.Get("ETag") != "" {
		return failf("%s: a 204 delete carries a body or an ETag", r.What())
	}
	return p.notCreated(ctx, f.Ref, name, "a delete")
}

func checkDeleteRevisionFence(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "delrev")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	for tag, code := range map[string]wire.Code{`"99"`: wire.CodeRevisionConflict, `W/"1"`: wire.CodeInvalidArgument, `*`: wire.CodeInvalidArgument, `"1", "2"`: wire.CodeInvalidArgument} {
		r, err := p.del(ctx, p.P, f.Ref, name, "1", map[string]string{"If-Match": tag})
		if err != nil {
			return err
		}
		if err := expectCode(r, code); err != nil {
			return failf("%s (delete with If-Match %s)", err, tag)
		}
	}
	r, err := p.del(ctx, p.P, f.Ref, name, "1", map[string]string{"If-Match": `"` + a.Metadata.Revision + `"`})
	if err != nil {
		return err
	}
	return expectStatus(r, http.StatusNoContent)
}

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
