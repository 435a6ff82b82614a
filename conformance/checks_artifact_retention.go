package conformance

// Artifact retention while referenced, and commit binding the declared size to stored bytes.

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

func checkArtifactRetention(ctx context.Context, p *Probe) error {
	f, err := p.artifactForm()
	if err != nil {
		return err
	}
	manifest, m, st, err := p.openFreshUpload(ctx, "retain")
	if err != nil {
		return err
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
	ab, err := p.P.Do(ctx, Req{Method: http.MethodDelete, Target: API + "/artifacts/uploads/" + st.UploadID, Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}})
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
