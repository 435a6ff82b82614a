package conformance

import (
	"context"
	"net/http"
	"slices"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func checkAddressTenantScoped(ctx context.Context, p *Probe) error {
	f, spec, a, err := p.simpleResource(ctx, "addr")
	if err != nil {
		return err
	}
	r, err := p.apply(ctx, p.Other, f.Ref, a.Metadata.Name, spec, "")
	if err != nil {
		return err
	}
	b, err := p.settle(ctx, p.Other, r, http.StatusCreated)
	if err != nil {
		return failf("%v (another tenant holds the same space, kind and name independently)", err)
	}
	if b.Metadata.UID == a.Metadata.UID {
		return failf("%s: both tenants' resources share uid %q", r.What(), a.Metadata.UID)
	}
	theirs, err := p.read(ctx, p.Other, f.Ref, a.Metadata.Name)
	if err != nil {
		return err
	}
	got, err := decodeResource(theirs)
	if err != nil {
		return err
	}
	if got.Metadata.UID != b.Metadata.UID {
		return failf("%s: the other tenant reads uid %q, expected its own %q", theirs.What(), got.Metadata.UID, b.Metadata.UID)
	}
	return p.unchanged(ctx, a)
}

func checkRelationResolutionTenantScoped(ctx context.Context, p *Probe) error {
	f, err := p.pickForm("with a reference to another resource", func(f *catalog.Form) bool {
		return slices.ContainsFunc(f.Relations, func(r catalog.Relation) bool { return r.Binding == nil })
	})
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, f)
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(f))
	r, err := p.apply(ctx, p.Other, f.Ref, name, spec, "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (another tenant referring to names only the first tenant holds)", err)
	}
	if r, err := p.read(ctx, p.Other, f.Ref, name); err != nil {
		return err
	} else if r.Code() != wire.CodeResourceNotFound {
		return failf("%s: the refused apply stored a resource: %s", r.What(), r.Got())
	}
	return nil
}

func checkDeleteFenceSurvivesRendering(ctx context.Context, p *Probe) error {
	d, err := p.deploymentForm()
	if err != nil {
		return err
	}
	dep, err := p.buildOf(ctx, d)
	if err != nil {
		return err
	}
	var target *Resource
	for _, rel := range d.Relations {
		if len(splitPointer(rel.Pointer)) == 1 {
			if tf, err := p.targetForm(rel); err == nil {
				target = p.world.made[tf.Ref.APIVersion+"/"+tf.Ref.Kind]
			}
		}
	}
	if target == nil {
		return notApplicable("%s refers to no resource the runner made", d.Ref)
	}
	if err := p.deleted(ctx, dep.res); err != nil {
		return err
	}
	at := slices.Index(p.world.order, target)
	for i := len(p.world.order) - 1; i > at; i-- {
		if err := p.deleted(ctx, p.world.order[i]); err != nil {
			return err
		}
	}
	now, err := p.readResource(ctx, target.Ref(), target.Metadata.Name)
	if err != nil {
		return err
	}
	if now.Metadata.Revision == target.Metadata.Revision {
		return notApplicable("deploying and removing %s %q moved nothing of its rendering", target.Kind, target.Metadata.Name)
	}
	r, err := p.del(ctx, p.P, target.Ref(), target.Metadata.Name, now.Metadata.Generation, nil)
	if err != nil {
		return err
	}
	if err := p.deleteSucceeded(ctx, r); err != nil {
		return failf("%v (a delete fenced by the current generation, after derived rendering moved the revision %s→%s)", err, target.Metadata.Revision, now.Metadata.Revision)
	}
	return nil
}

func checkArtifactRetention(ctx context.Context, p *Probe) error {
	f, err := p.artifactForm()
	if err != nil {
		return err
	}
	manifest, m, err := p.freshBundle("retain")
	if err != nil {
		return err
	}
	r, st, err := p.startUpload(ctx, p.P, manifest)
	if err != nil {
		return err
	}
	if st == nil {
		return expectStatus(r, http.StatusCreated, http.StatusOK)
	}
	d := wire.RawDigest(m.Bytes)
	if br, err := p.putBlob(ctx, p.P, st.UploadID, d, m.Bytes); err != nil {
		return err
	} else if err := expectStatus(br, http.StatusCreated, http.StatusNoContent); err != nil {
		return err
	}
	cr, err := p.commitUpload(ctx, p.P, st.UploadID)
	if err != nil {
		return err
	}
	if err := expectStatus(cr, http.StatusCreated, http.StatusOK); err != nil {
		return err
	}
	digest, _ := wire.DigestValue(manifest)
	if _, err := p.create(ctx, f, p.Name(slugPrefix(f)), map[string]any{f.Fields[0].Wire: digest}); err != nil {
		return err
	}
	ab, err := p.P.Do(ctx, Req{Method: http.MethodDelete, Target: API + "/artifacts/uploads/" + st.UploadID, Header: map[string]string{"Idempotency-Key": newKey()}})
	if err != nil {
		return err
	}
	if err := expectStatus(ab, http.StatusNoContent); err != nil {
		return err
	}
	g, err := p.get(ctx, API+"/artifacts/"+digest)
	if err != nil {
		return err
	}
	if err := expectStatus(g, http.StatusOK); err != nil {
		return failf("%v (a manifest a resource refers to stays readable after its session was abandoned)", err)
	}
	h, err := p.P.Do(ctx, Req{Method: http.MethodHead, Target: API + "/artifacts/blobs/" + d})
	if err != nil {
		return err
	}
	if err := expectStatus(h, http.StatusOK); err != nil {
		return failf("%v (a blob a committed manifest names stays held)", err)
	}
	return nil
}

func checkCommitBindsDeclaredSize(ctx context.Context, p *Probe) error {
	manifest, m, err := p.freshBundle("size")
	if err != nil {
		return err
	}
	if _, err := p.upload(ctx, p.P, manifest, m); err != nil {
		return err
	}
	// The tenant now holds the blob; a manifest declaring it with another size
	// lists nothing missing, and its commit must compare with the stored bytes.
	lying := manifestOf(manifest["kind"].(string), m.Name, m)
	lying["modules"].([]any)[0].(map[string]any)["size"] = len(m.Bytes) + 1
	r, st, err := p.startUpload(ctx, p.P, lying)
	if err != nil {
		return err
	}
	if st == nil {
		if r.Code() == wire.CodeArtifactInvalid {
			return nil // refused already at start: also binds the declared size
		}
		return expectStatus(r, http.StatusCreated, http.StatusOK)
	}
	cr, err := p.commitUpload(ctx, p.P, st.UploadID)
	if err != nil {
		return err
	}
	if err := expectCode(cr, wire.CodeArtifactInvalid); err != nil {
		return failf("%s (commit of a manifest declaring a held blob with another size)", err)
	}
	return nil
}
