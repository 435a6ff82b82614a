package conformance

import (
	"context"
	"net/http"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
)

// freshBundle returns a manifest of the artifact-addressed Form's kind with one
// main module whose bytes no tenant holds yet.
// openFreshUpload starts an upload session of a fresh one-module bundle as the primary
// principal; a start the host does not answer 201/200 is the check's failure.
func (p *Probe) openFreshUpload(ctx context.Context, tag string) (map[string]any, module, *uploadStatus, error) {
	manifest, m, err := p.freshBundle(tag)
	if err != nil {
		return nil, module{}, nil, err
	}
	r, st, err := p.startUpload(ctx, p.P, manifest)
	if err != nil {
		return nil, module{}, nil, err
	}
	if st == nil {
		return nil, module{}, nil, expectStatus(r, http.StatusCreated, http.StatusOK)
	}
	return manifest, m, st, nil
}

func (p *Probe) freshBundle(tag string) (map[string]any, module, error) {
	f, err := p.artifactForm()
	if err != nil {
		return nil, module{}, err
	}
	m := p.mainModule(f, p.run+"-"+tag+"-"+randomHex(4))
	return manifestOf(manifestKind(f).Kind, m.Name, m), m, nil
}

func checkArtifactMissingBlob(ctx context.Context, p *Probe) error {
	_, m, st, err := p.openFreshUpload(ctx, "missing")
	if err != nil {
		return err
	}
	d := wire.RawDigest(m.Bytes)
	if !slices.Equal(st.MissingBlobs, []string{d}) {
		return failf("POST %s/artifacts/uploads: missingBlobs %q, expected exactly the new module's digest %s", API, st.MissingBlobs, d)
	}
	cr, err := p.commitUpload(ctx, p.P, st.UploadID)
	if err != nil {
		return err
	}
	if err := expectCode(cr, wire.CodeArtifactMissing); err != nil {
		return failf("%s (commit before the declared blob was uploaded)", err)
	}
	return nil
}

func checkArtifactDigestMismatch(ctx context.Context, p *Probe) error {
	_, m, st, err := p.openFreshUpload(ctx, "mismatch")
	if err != nil {
		return err
	}
	d := wire.RawDigest(m.Bytes)
	other := append([]byte("x"), m.Bytes[1:]...)
	for label, b := range sorted(map[string][]byte{"other bytes of the declared size": other, "fewer bytes than declared": m.Bytes[:len(m.Bytes)-1]}) {
		br, err := p.putBlob(ctx, p.P, st.UploadID, d, b)
		if err != nil {
			return err
		}
		if err := expectCode(br, wire.CodeArtifactInvalid); err != nil {
			return failf("%s (%s)", err, label)
		}
	}
	br, err := p.putBlob(ctx, p.P, st.UploadID, wire.RawDigest([]byte("undeclared "+p.run)), []byte("undeclared "+p.run))
	if err != nil {
		return err
	}
	if err := expectCode(br, wire.CodeArtifactInvalid); err != nil {
		return failf("%s (a blob the session's manifest does not declare)", err)
	}
	return nil
}

func checkArtifactCommitIdempotent(ctx context.Context, p *Probe) error {
	manifest, m, st, err := p.openFreshUpload(ctx, "commit")
	if err != nil {
		return err
	}
	br, err := p.putBlob(ctx, p.P, st.UploadID, wire.RawDigest(m.Bytes), m.Bytes)
	if err != nil {
		return err
	}
	if err := expectStatus(br, http.StatusCreated); err != nil {
		return err
	}
	want, _ := wire.DigestValue(manifest)
	for i, status := range []int{http.StatusCreated, http.StatusOK} {
		cr, err := p.commitUpload(ctx, p.P, st.UploadID)
		if err != nil {
			return err
		}
		if err := expectStatus(cr, status); err != nil {
			return failf("%v (commit number %d)", err, i+1)
		}
		var cm struct {
			ManifestDigest string `json:"manifestDigest,required"`
		}
		if err := wire.DecodeStrict(cr.Body, &cm); err != nil || cm.ManifestDigest != want {
			return failf("%s: commit answered %s, expected manifestDigest %s (the RFC 8785 digest of the manifest)", cr.What(), snippet(cr.Body), want)
		}
	}
	return nil
}

func checkArtifactThenBundleApply(ctx context.Context, p *Probe) error {
	f, err := p.artifactForm()
	if err != nil {
		return err
	}
	manifest, m, err := p.freshBundle("apply")
	if err != nil {
		return err
	}
	digest, err := p.upload(ctx, p.P, manifest, m)
	if err != nil {
		return err
	}
	r, err := p.get(ctx, API+"/artifacts/"+digest)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	if got, err := wire.Digest(r.Body); err != nil || got != digest {
		return failf("%s: the stored manifest digests to %s, expected its address %s", r.What(), got, digest)
	}
	h, err := p.P.Do(ctx, Req{Method: http.MethodHead, Target: API + "/artifacts/blobs/" + wire.RawDigest(m.Bytes)})
	if err != nil {
		return err
	}
	if err := expectStatus(h, http.StatusOK); err != nil {
		return failf("%v (HEAD of a blob the tenant holds)", err)
	}
	_, err = p.create(ctx, f, p.Name(slugPrefix(f)), map[string]any{f.Fields[0].Wire: digest})
	return err
}

// refuseManifest expects upload start of manifest to be artifact_invalid.
func (p *Probe) refuseManifest(ctx context.Context, label string, manifest map[string]any) error {
	return p.refuseStart(ctx, label, startBody(manifest))
}

// refuseStart is refuseManifest of an upload start's body already encoded (startBody).
func (p *Probe) refuseStart(ctx context.Context, label string, body []byte) error {
	r, _, err := p.startUploadOf(ctx, p.P, body)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeArtifactInvalid); err != nil {
		return failf("%s (%s)", err, label)
	}
	return nil
}

func checkManifestRejectList(ctx context.Context, p *Probe) error {
	manifest, m, err := p.freshBundle("reject")
	if err != nil {
		return err
	}
	kind := manifest["kind"].(string)
	jsonMod := module{Name: "data.json", MediaType: "application/json", Bytes: []byte(`{}`)}
	mapNoTarget := module{Name: "other.js.map", MediaType: "application/source-map+json", Bytes: []byte(`{"version":3}`)}
	mapBadName := module{Name: "index.js.sourcemap", MediaType: "application/source-map+json", Bytes: []byte(`{"version":3}`)}
	for label, bad := range sorted(map[string]map[string]any{
		"a module of media type application/json":   manifestOf(kind, m.Name, m, jsonMod),
		"two modules with one name":                 manifestOf(kind, m.Name, m, m),
		"a source map whose target is not declared": manifestOf(kind, m.Name, m, mapNoTarget),
		"a source map not named *.map":              manifestOf(kind, m.Name, m, mapBadName),
	}) {
		if err := p.refuseManifest(ctx, label, bad); err != nil {
			return err
		}
	}
	return nil
}

func checkManifestKindExclusive(ctx context.Context, p *Probe) error {
	manifest, m, err := p.freshBundle("kind")
	if err != nil {
		return err
	}
	withFiles := cloneSpec(manifest)
	withFiles["files"] = []any{map[string]any{"path": "asset.txt", "mediaType": "text/plain", "size": 1, "digest": wire.RawDigest([]byte("a"))}}
	noModules := cloneSpec(manifest)
	delete(noModules, "modules")
	delete(noModules, "mainModule")
	noModules["files"] = withFiles["files"]
	_ = m
	for label, bad := range sorted(map[string]map[string]any{
		"a modules manifest that also carries files":  withFiles,
		"a modules manifest kind carrying only files": noModules,
	}) {
		if err := p.refuseManifest(ctx, label, bad); err != nil {
			return err
		}
	}
	return nil
}

func checkMainModuleLoadable(ctx context.Context, p *Probe) error {
	manifest, m, err := p.freshBundle("main")
	if err != nil {
		return err
	}
	kind := manifest["kind"].(string)
	sm := module{Name: "index.js.map", MediaType: "application/source-map+json", Bytes: []byte(`{"version":3}`)}
	for label, bad := range sorted(map[string]map[string]any{
		"mainModule naming a source map":         manifestOf(kind, sm.Name, m, sm),
		"mainModule naming an undeclared module": manifestOf(kind, "missing.js", m),
	}) {
		if err := p.refuseManifest(ctx, label, bad); err != nil {
			return err
		}
	}
	return nil
}

func checkUploadSessionBound(ctx context.Context, p *Probe) error {
	_, m, st, err := p.openFreshUpload(ctx, "session")
	if err != nil {
		return err
	}
	d := wire.RawDigest(m.Bytes)
	others := []*Client{p.Alt}
	if p.Other != nil {
		others = append(others, p.Other)
	}
	for _, c := range others {
		br, err := p.putBlob(ctx, c, st.UploadID, d, m.Bytes)
		if err != nil {
			return err
		}
		if err := expectCode(br, wire.CodeArtifactMissing); err != nil {
			return failf("%s (blob upload by the %s principal into another's session)", err, c.Label)
		}
		cr, err := p.commitUpload(ctx, c, st.UploadID)
		if err != nil {
			return err
		}
		if err := expectCode(cr, wire.CodeArtifactMissing); err != nil {
			return failf("%s (commit by the %s principal of another's session)", err, c.Label)
		}
		ar, err := c.Do(ctx, Req{Method: http.MethodDelete, Target: API + "/artifacts/uploads/" + st.UploadID, Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}})
		if err != nil {
			return err
		}
		if err := expectCode(ar, wire.CodeArtifactMissing); err != nil {
			return failf("%s (abandon by the %s principal of another's session)", err, c.Label)
		}
	}
	return nil
}

func checkDigestNotCapability(ctx context.Context, p *Probe) error {
	manifest, m, err := p.freshBundle("cap")
	if err != nil {
		return err
	}
	if _, err := p.upload(ctx, p.P, manifest, m); err != nil {
		return err
	}
	d := wire.RawDigest(m.Bytes)
	h, err := p.Other.Do(ctx, Req{Method: http.MethodHead, Target: API + "/artifacts/blobs/" + d})
	if err != nil {
		return err
	}
	if h.Status != http.StatusNotFound {
		return failf("%s: another tenant's HEAD of a blob it never uploaded answered %d, expected a bare 404", h.What(), h.Status)
	}
	r, st, err := p.startUpload(ctx, p.Other, manifest)
	if err != nil {
		return err
	}
	if st == nil {
		return expectStatus(r, http.StatusCreated, http.StatusOK)
	}
	if !slices.Contains(st.MissingBlobs, d) {
		return failf("%s: another tenant's upload does not list %s as missing; bytes another tenant stored are not a capability", r.What(), d)
	}
	return nil
}

func checkManifestNotCapability(ctx context.Context, p *Probe) error {
	f, err := p.artifactForm()
	if err != nil {
		return err
	}
	manifest, m, err := p.freshBundle("mcap")
	if err != nil {
		return err
	}
	digest, err := p.upload(ctx, p.P, manifest, m)
	if err != nil {
		return err
	}
	r, err := p.Other.Do(ctx, Req{Method: http.MethodGet, Target: API + "/artifacts/" + digest})
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeArtifactMissing); err != nil {
		return failf("%s (another tenant reading a manifest it never committed)", err)
	}
	if !p.S.Offers(f, "create") {
		return nil // the apply half: a host that withholds create refuses it for that first; the read half is measured
	}
	name := p.Name(slugPrefix(f))
	ar, err := p.apply(ctx, p.Other, f.Ref, name, map[string]any{f.Fields[0].Wire: digest}, "")
	if err != nil {
		return err
	}
	if err := expectCode(ar, wire.CodeArtifactMissing); err != nil {
		return failf("%s (another tenant applying a bundle naming a manifest it does not hold)", err)
	}
	return nil
}
