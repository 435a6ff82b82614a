package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// ArtifactAPIVersion is the artifact manifest apiVersion.
const ArtifactAPIVersion = "artifacts.takoform.com/v1alpha1"

// exportedHandlers lists what the uploaded main module exports: every value of a
// closed string-set enum on a Form that refers to the artifact-addressed Form f.
func (p *Probe) exportedHandlers(f *catalog.Form) []string {
	var out []string
	for _, src := range p.S.Forms {
		refers := false
		for _, rel := range src.Relations {
			if rel.TargetKind == f.Ref.Kind && rel.TargetAPIVersion == f.Ref.APIVersion {
				refers = true
			}
		}
		if !refers {
			continue
		}
		for _, fl := range src.Fields {
			if fl.Kind == catalog.FieldStringSet {
				for _, v := range fl.Enum {
					if !slices.Contains(out, v) {
						out = append(out, v)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// uploadBundle uploads and commits a one-module manifest of f's kind whose main
// module exports every handler, and returns its manifestDigest.
func (p *Probe) uploadBundle(ctx context.Context, f *catalog.Form) (string, error) {
	var members []string
	for _, h := range p.exportedHandlers(f) {
		members = append(members, fmt.Sprintf("  async %s() { return undefined; }", h))
	}
	src := []byte("// conformance run " + p.run + "\nexport default {\n" + strings.Join(members, ",\n") + "\n};\n")
	digest := wire.RawDigest(src)
	manifest := map[string]any{
		"apiVersion": ArtifactAPIVersion,
		"kind":       f.Ref.Kind,
		"mainModule": "index.js",
		"modules": []any{map[string]any{"name": "index.js", "mediaType": "application/javascript+module",
			"size": len(src), "digest": digest}},
	}
	r, err := p.P.Do(ctx, Req{Method: http.MethodPost, Target: API + "/artifacts/uploads",
		Header: map[string]string{"Idempotency-Key": newKey()}, Body: mustJSON(map[string]any{"manifest": manifest})})
	if err != nil {
		return "", err
	}
	if err := expectStatus(r, http.StatusCreated, http.StatusOK); err != nil {
		return "", err
	}
	var st struct {
		UploadID     string   `json:"uploadId"`
		MissingBlobs []string `json:"missingBlobs"`
	}
	if err := json.Unmarshal(r.Body, &st); err != nil || st.UploadID == "" {
		return "", failf("%s: upload start answer has no uploadId: %s", r.What(), snippet(r.Body))
	}
	if slices.Contains(st.MissingBlobs, digest) {
		br, err := p.P.Do(ctx, Req{Method: http.MethodPut, Target: API + "/artifacts/uploads/" + st.UploadID + "/blobs/" + digest, Body: src,
			Header: map[string]string{"Content-Type": "application/octet-stream"}})
		if err != nil {
			return "", err
		}
		if err := expectStatus(br, http.StatusCreated, http.StatusNoContent); err != nil {
			return "", err
		}
	}
	cr, err := p.P.Do(ctx, Req{Method: http.MethodPost, Target: API + "/artifacts/uploads/" + st.UploadID + "/commit",
		Header: map[string]string{"Idempotency-Key": newKey()}})
	if err != nil {
		return "", err
	}
	if err := expectStatus(cr, http.StatusCreated, http.StatusOK); err != nil {
		return "", err
	}
	var cm struct {
		ManifestDigest string `json:"manifestDigest"`
	}
	want, _ := wire.DigestValue(manifest)
	if err := json.Unmarshal(cr.Body, &cm); err != nil || cm.ManifestDigest != want {
		return "", failf("%s: commit answered %s, expected manifestDigest %s", cr.What(), snippet(cr.Body), want)
	}
	return cm.ManifestDigest, nil
}
