package conformance

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

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
	delete(noFence.Header, wire.HeaderExpectedGeneration)
	bad["no fence and no If-None-Match"] = noFence
	nonCanon := p.applyReq(ref, name, alt, digest, "01")
	bad["a non-canonical fence 01"] = nonCanon
	disagree := p.applyReq(ref, name, alt, digest, "1")
	disagree.Body = body(ref, name, p.Space, alt, map[string]any{"review": map[string]any{"prepareDigest": digest}, "expectedGeneration": "2"})
	bad["header fence 1 with body expectedGeneration 2"] = disagree
	for label, req := range sorted(bad) {
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
	for label, send := range sorted(map[string]func() (*Resp, error){
		"apply":   func() (*Resp, error) { return p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, "2")) },
		"observe": func() (*Resp, error) { return p.observe(ctx, p.P, f.Ref, name, "2", nil) },
		"delete":  func() (*Resp, error) { return p.del(ctx, p.P, f.Ref, name, "2", nil) },
		"prepare": func() (*Resp, error) { r, _, err := p.prepare(ctx, p.P, f.Ref, name, spec, "2"); return r, err },
	}) {
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

func checkObserveFence(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "obs")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	for fence, code := range sorted(map[string]wire.Code{"": wire.CodeInvalidArgument, "01": wire.CodeInvalidArgument, "+1": wire.CodeInvalidArgument, "2": wire.CodeGenerationConflict}) {
		h := map[string]string{wire.HeaderIdempotencyKey: newKey()}
		if fence != "" {
			h[wire.HeaderExpectedGeneration] = fence
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
		Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}})
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
	if err := p.deleteSucceeded(ctx, r); err != nil {
		return err
	}
	return p.notCreated(ctx, f.Ref, name, "a delete")
}

func checkDeleteRevisionFence(ctx context.Context, p *Probe) error {
	f, _, a, err := p.simpleResource(ctx, "delrev")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	for tag, code := range sorted(map[string]wire.Code{`"99"`: wire.CodeRevisionConflict, `W/"1"`: wire.CodeInvalidArgument, `*`: wire.CodeInvalidArgument, `"1", "2"`: wire.CodeInvalidArgument}) {
		r, err := p.del(ctx, p.P, f.Ref, name, "1", map[string]string{wire.HeaderIfMatch: tag})
		if err != nil {
			return err
		}
		if err := expectCode(r, code); err != nil {
			return failf("%s (delete with If-Match %s)", err, tag)
		}
	}
	r, err := p.del(ctx, p.P, f.Ref, name, "1", map[string]string{wire.HeaderIfMatch: `"` + a.Metadata.Revision + `"`})
	if err != nil {
		return err
	}
	return p.deleteSucceeded(ctx, r)
}
