package conformance

import (
	"bytes"
	"context"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// sameSpec compares a served spec with the materialized one sent.
func sameSpec(res *Resource, spec map[string]any) bool {
	a, err1 := wire.Canonicalize(res.Spec)
	b, err2 := wire.CanonicalValue(spec)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

func checkCreateUIDMinted(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "uid")
	if err != nil {
		return err
	}
	what := "PUT " + ResourcePath(f.Ref, a.Metadata.Name)
	switch {
	case !wire.ValidUID(a.Metadata.UID):
		return failf("%s: metadata.uid %q does not match the uid grammar", what, a.Metadata.UID)
	case a.Metadata.Generation != "1" || a.Metadata.Revision != "1" || a.Status.ObservedGeneration != "1":
		return failf("%s: a create answers generation, revision and observedGeneration \"1\", got %q, %q, %q", what, a.Metadata.Generation, a.Metadata.Revision, a.Status.ObservedGeneration)
	case a.Ref() != f.Ref:
		return failf("%s: form.formRef is %s, expected the create-time ref %s", what, a.Ref(), f.Ref)
	case !sameSpec(a, spec):
		return failf("%s: spec %s is not the materialized spec sent", what, snippet(a.Spec))
	case !hasReady(a):
		return failf("%s: status.conditions lacks a complete Ready condition", what)
	}
	b, err := p.create(ctx, f, p.Name("uid"), spec)
	if err != nil {
		return err
	}
	if b.Metadata.UID == a.Metadata.UID {
		return failf("PUT %s: two resources got the same uid %q", ResourcePath(f.Ref, b.Metadata.Name), a.Metadata.UID)
	}
	return nil
}

func hasReady(r *Resource) bool {
	for _, c := range r.Status.Conditions {
		if c.Type == wire.ConditionReady && c.Reason != "" && c.LastTransitionTime != "" {
			return true
		}
	}
	return false
}

func checkApplyHeadersRequired(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	name := p.Name("hdr")
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	cases := map[string]func(h map[string]string){
		"no Idempotency-Key":                   func(h map[string]string) { delete(h, wire.HeaderIdempotencyKey) },
		"an Idempotency-Key with a space":      func(h map[string]string) { h[wire.HeaderIdempotencyKey] = "bad key" },
		"an Idempotency-Key of 256 characters": func(h map[string]string) { h[wire.HeaderIdempotencyKey] = strings.Repeat("k", 256) },
		"neither If-None-Match nor a fence":    func(h map[string]string) { delete(h, wire.HeaderIfNoneMatch) },
		"If-None-Match other than *":           func(h map[string]string) { h[wire.HeaderIfNoneMatch] = `"1"` },
		"If-None-Match together with a fence":  func(h map[string]string) { h[wire.HeaderExpectedGeneration] = "1" },
		"If-None-Match together with If-Match": func(h map[string]string) { h[wire.HeaderIfMatch] = `"1"` },
	}
	for label, mod := range sorted(cases) {
		req := p.applyReq(f.Ref, name, spec, digest, "")
		mod(req.Header)
		r, err := p.P.Do(ctx, req)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (%s)", err, label)
		}
	}
	return p.notCreated(ctx, f.Ref, name, "requests with missing or malformed headers")
}

func checkCreateConflict(ctx context.Context, p *Probe) error {
	f, spec, err := p.pickSpec(ctx, p.simpleForm)
	if err != nil {
		return err
	}
	name := p.Name("dup")
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	first, err := p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, ""))
	if err != nil {
		return err
	}
	a, err := p.settle(ctx, p.P, first, http.StatusCreated)
	if err != nil {
		return err
	}
	r, err := p.P.Do(ctx, p.applyReq(f.Ref, name, spec, digest, ""))
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
		return failf("%s (a second create of an existing name)", err)
	}
	if k, ok := p.Cat.Kind(f.Ref.APIVersion, f.Ref.Kind); ok {
		for _, o := range k.Versions {
			if _, installed := p.S.Installed(o.Ref); o.Ref == f.Ref || !installed {
				continue
			}
			ospec, err := p.specFor(ctx, o)
			if err != nil {
				return err
			}
			r, err := p.apply(ctx, p.P, o.Ref, name, ospec, "")
			if err != nil {
				return err
			}
			if err := expectCode(r, wire.CodeGenerationConflict); err != nil {
				return failf("%s (a create under %s of a name held under %s)", err, o.Ref.DefinitionVersion, f.Ref.DefinitionVersion)
			}
		}
	}
	now, err := p.readResource(ctx, f.Ref, name)
	if err != nil {
		return err
	}
	if now.Metadata.UID != a.Metadata.UID || now.Metadata.Revision != a.Metadata.Revision {
		return failf("GET %s: the refused creates changed the resource (uid %s→%s, revision %s→%s)", ResourcePath(f.Ref, name), a.Metadata.UID, now.Metadata.UID, a.Metadata.Revision, now.Metadata.Revision)
	}
	return nil
}

func checkDeleteThenRecreate(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "recreate")
	if err != nil {
		return err
	}
	if err := p.deleted(ctx, a); err != nil {
		return err
	}
	if err := p.notCreated(ctx, f.Ref, a.Metadata.Name, "a delete"); err != nil {
		return err
	}
	b, err := p.create(ctx, f, a.Metadata.Name, spec)
	if err != nil {
		return err
	}
	if b.Metadata.UID == a.Metadata.UID {
		return failf("PUT %s: the re-created resource reuses uid %q of the deleted one", ResourcePath(f.Ref, a.Metadata.Name), a.Metadata.UID)
	}
	if b.Metadata.Generation != "1" {
		return failf("PUT %s: the re-created resource starts at generation %q, expected \"1\"", ResourcePath(f.Ref, a.Metadata.Name), b.Metadata.Generation)
	}
	return nil
}

func checkExpectedUID(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "xuid")
	if err != nil {
		return err
	}
	name := a.Metadata.Name
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "1")
	if err != nil {
		return err
	}
	req := p.applyReq(f.Ref, name, spec, digest, "1")
	req.Body = body(f.Ref, name, p.Space, spec, map[string]any{"review": map[string]any{"prepareDigest": digest}, "expectedUid": "conformance-not-the-uid"})
	r, err := p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeUIDMismatch); err != nil {
		return failf("%s (an update with another expectedUid)", err)
	}
	other := p.Name("xuid")
	cd, err := p.prepared(ctx, p.P, f.Ref, other, spec, "")
	if err != nil {
		return err
	}
	creq := p.applyReq(f.Ref, other, spec, cd, "")
	creq.Body = body(f.Ref, other, p.Space, spec, map[string]any{"review": map[string]any{"prepareDigest": cd}, "expectedUid": a.Metadata.UID})
	r, err = p.P.Do(ctx, creq)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeUIDMismatch); err != nil {
		return failf("%s (a create carrying expectedUid)", err)
	}
	return p.notCreated(ctx, f.Ref, other, "a create refused for its expectedUid")
}

func checkPackageDigestNotIdentity(ctx context.Context, p *Probe) error {
	f, err := p.simpleForm()
	if err != nil {
		return err
	}
	q := exactQuery(p.Space, f.Ref) + "&packageDigest=" + strings.Replace(flipDigest(""), ":", "%3A", 1)
	for _, t := range []string{API + "/forms" + q, ResourcePath(f.Ref, "absent") + q} {
		r, err := p.get(ctx, t)
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
			return failf("%s (packageDigest is not an exact-FormRef query key)", err)
		}
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	name := p.Name("pkg")
	digest, err := p.prepared(ctx, p.P, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	foreign := flipDigest(f.PackageDigest)
	req := p.applyReq(f.Ref, name, spec, digest, "")
	req.Body = body(f.Ref, name, p.Space, spec, map[string]any{"review": map[string]any{"prepareDigest": digest},
		"form": map[string]any{"formRef": f.Ref, "packageDigest": "sha256:NOT-A-DIGEST"}})
	r, err := p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (a malformed form.packageDigest)", err)
	}
	req = p.applyReq(f.Ref, name, spec, digest, "")
	req.Body = body(f.Ref, name, p.Space, spec, map[string]any{"review": map[string]any{"prepareDigest": digest},
		"form": map[string]any{"formRef": f.Ref, "packageDigest": foreign}})
	r, err = p.P.Do(ctx, req)
	if err != nil {
		return err
	}
	res, err := p.settle(ctx, p.P, r, http.StatusCreated)
	if err != nil {
		return failf("%v (a well-formed foreign packageDigest is audit evidence and must be accepted)", err)
	}
	if res.Form.PackageDigest == foreign {
		return failf("PUT %s: form.packageDigest echoes the caller's %s instead of the installed one", ResourcePath(f.Ref, name), foreign)
	}
	return nil
}

// createdFirst orders a kind's two installed definition versions for
// checkAnswersOnlyUnderRecordedRef: the one to create first, then the other.
// A standalone version goes first when there is one, so the check needs no
// other resource made before it and measures hosts that cannot make the other
// version's targets; otherwise the order is the catalog's.
func createdFirst(a, b *catalog.Form) (*catalog.Form, *catalog.Form) {
	if !standalone(a) && standalone(b) {
		return b, a
	}
	return a, b
}

func checkAnswersOnlyUnderRecordedRef(ctx context.Context, p *Probe) error {
	a, b, err := p.twoVersions()
	if err != nil {
		return err
	}
	a, b = createdFirst(a, b)
	spec, err := p.specFor(ctx, a)
	if err != nil {
		return err
	}
	res, err := p.create(ctx, a, p.Name("rec"), spec)
	if err != nil {
		return err
	}
	name := res.Metadata.Name
	r, err := p.read(ctx, p.P, b.Ref, name)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (read under another installed FormRef of the kind)", err)
	}
	for label, send := range sorted(map[string]func() (*Resp, error){
		"observe": func() (*Resp, error) { return p.observe(ctx, p.P, b.Ref, name, "1", nil) },
		"delete":  func() (*Resp, error) { return p.del(ctx, p.P, b.Ref, name, "1", nil) },
	}) {
		r, err := send()
		if err != nil {
			return err
		}
		if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
			return failf("%s (%s under another installed FormRef of the kind)", err, label)
		}
	}
	now, err := p.readResource(ctx, a.Ref, name)
	if err != nil {
		return err
	}
	if now.Ref() != a.Ref || now.Metadata.UID != res.Metadata.UID {
		return failf("GET %s: the resource is now %s uid %s, expected %s uid %s", ResourcePath(a.Ref, name), now.Ref(), now.Metadata.UID, a.Ref, res.Metadata.UID)
	}
	return nil
}
