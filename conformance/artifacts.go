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

// module is one file of a bundle the runner uploads.
type module struct {
	Name, MediaType string
	Bytes           []byte
}

func (m module) entry() map[string]any {
	return map[string]any{"name": m.Name, "mediaType": m.MediaType, "size": len(m.Bytes), "digest": wire.RawDigest(m.Bytes)}
}

// manifestOf builds a modules manifest of kind with mainModule main.
func manifestOf(kind, main string, mods ...module) map[string]any {
	entries := make([]any, len(mods))
	for i, m := range mods {
		entries[i] = m.entry()
	}
	return map[string]any{"apiVersion": ArtifactAPIVersion, "kind": kind, "mainModule": main, "modules": entries}
}

type uploadStatus struct {
	UploadID     string   `json:"uploadId,required"`
	MissingBlobs []string `json:"missingBlobs,required"`
}

// startUpload opens an upload session for manifest.
func (p *Probe) startUpload(ctx context.Context, c *Client, manifest any) (*Resp, *uploadStatus, error) {
	r, err := c.Do(ctx, Req{Method: http.MethodPost, Target: API + "/artifacts/uploads",
		Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}, Body: mustJSON(map[string]any{"manifest": manifest})})
	if err != nil || (r.Status != http.StatusCreated && r.Status != http.StatusOK) {
		return r, nil, err
	}
	var st uploadStatus
	if err := wire.DecodeStrict(r.Body, &st); err != nil {
		return r, nil, failf("%s: not an artifactUploadStatus: %v", r.What(), err)
	}
	return r, &st, nil
}

func (p *Probe) putBlob(ctx context.Context, c *Client, uploadID, digest string, b []byte) (*Resp, error) {
	return c.Do(ctx, Req{Method: http.MethodPut, Target: API + "/artifacts/uploads/" + uploadID + "/blobs/" + digest, Body: b,
		Header: map[string]string{"Content-Type": "application/octet-stream"}})
}

func (p *Probe) commitUpload(ctx context.Context, c *Client, uploadID string) (*Resp, error) {
	return c.Do(ctx, Req{Method: http.MethodPost, Target: API + "/artifacts/uploads/" + uploadID + "/commit",
		Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}})
}

// upload runs the whole flow and returns the committed manifestDigest.
func (p *Probe) upload(ctx context.Context, c *Client, manifest map[string]any, mods ...module) (string, error) {
	r, st, err := p.startUpload(ctx, c, manifest)
	if err != nil {
		return "", err
	}
	if st == nil {
		return "", expectStatus(r, http.StatusCreated, http.StatusOK)
	}
	for _, m := range mods {
		d := wire.RawDigest(m.Bytes)
		if !slices.Contains(st.MissingBlobs, d) {
			continue
		}
		br, err := p.putBlob(ctx, c, st.UploadID, d, m.Bytes)
		if err != nil {
			return "", err
		}
		if err := expectStatus(br, http.StatusCreated, http.StatusNoContent); err != nil {
			return "", err
		}
	}
	cr, err := p.commitUpload(ctx, c, st.UploadID)
	if err != nil {
		return "", err
	}
	if err := expectStatus(cr, http.StatusCreated, http.StatusOK); err != nil {
		return "", err
	}
	var cm struct {
		ManifestDigest string `json:"manifestDigest,required"`
	}
	want, _ := wire.DigestValue(manifest)
	if err := wire.DecodeStrict(cr.Body, &cm); err != nil || cm.ManifestDigest != want {
		return "", failf("%s: commit answered %s, expected manifestDigest %s", cr.What(), snippet(cr.Body), want)
	}
	return cm.ManifestDigest, nil
}

// exportedHandlers lists what the uploaded main module exports: every value of a
// closed string-set enum on a Form that refers to the artifact-addressed Form f.
func (p *Probe) exportedHandlers(f *catalog.Form) []string {
	var out []string
	for _, src := range p.S.Forms {
		if !slices.ContainsFunc(src.Relations, func(rel catalog.Relation) bool {
			return rel.TargetKind == f.Ref.Kind && rel.TargetAPIVersion == f.Ref.APIVersion
		}) {
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

// mainModule is a module source exporting every handler; tag keeps its bytes
// (and so its digest) fresh.
func (p *Probe) mainModule(f *catalog.Form, tag string) module {
	var members []string
	for _, h := range p.exportedHandlers(f) {
		members = append(members, fmt.Sprintf("  async %s() { return undefined; }", h))
	}
	src := "// conformance " + tag + "\nexport default {\n" + strings.Join(members, ",\n") + "\n};\n"
	return module{Name: "index.js", MediaType: "application/javascript+module", Bytes: []byte(src)}
}

// uploadBundle uploads and commits a manifest of the kind f commits to
// (catalog/wire/artifact.go) and returns its manifestDigest: one main module
// exporting every handler for a kind with modules, one file of an admitted media
// type otherwise.
func (p *Probe) uploadBundle(ctx context.Context, f *catalog.Form) (string, error) {
	mk, ok := wire.ManifestKindOf(f.Ref.Kind)
	if !ok || mk.HasMainModule() {
		m := p.mainModule(f, p.run)
		return p.upload(ctx, p.P, manifestOf(manifestKind(f), m.Name, m), m)
	}
	m := module{Name: "index.html", MediaType: "text/html", Bytes: []byte("<!-- conformance " + p.run + " -->\n")}
	if !mk.Admits(m.MediaType) {
		_, sub, _ := strings.Cut(mk.MediaTypes[0], "/")
		m = module{Name: "0001-conformance." + sub, MediaType: mk.MediaTypes[0], Bytes: []byte("-- conformance " + p.run + "\n")}
	}
	return p.upload(ctx, p.P, filesManifestOf(mk, m), m)
}

// manifestKind is the manifest kind f commits to; a Form the table does not know
// commits to the manifest kind of its own name.
func manifestKind(f *catalog.Form) string {
	if mk, ok := wire.ManifestKindOf(f.Ref.Kind); ok {
		return mk.Kind
	}
	return f.Ref.Kind
}

// filesManifestOf builds a files manifest of kind mk.
func filesManifestOf(mk *wire.ManifestKind, files ...module) map[string]any {
	entries := make([]any, len(files))
	for i, m := range files {
		entries[i] = map[string]any{mk.PathMember: m.Name, "mediaType": m.MediaType, "size": len(m.Bytes), "digest": wire.RawDigest(m.Bytes)}
	}
	return map[string]any{"apiVersion": ArtifactAPIVersion, "kind": mk.Kind, mk.Member: entries}
}

// artifactForm picks the installed artifact-addressed Form whose manifest has
// modules and a main module: the one the module checks measure.
func (p *Probe) artifactForm() (*catalog.Form, error) {
	for _, f := range p.S.Forms {
		if mk, ok := wire.ManifestKindOf(f.Ref.Kind); artifactAddressed(f) && (!ok || mk.HasMainModule()) {
			return f, nil
		}
	}
	return nil, notApplicable("the host installs no artifact-addressed Form with modules%s", p.S.foreignNote())
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ca, err1 := wire.CanonicalValue(x)
	cb, err2 := wire.CanonicalValue(y)
	return err1 == nil && err2 == nil && string(ca) == string(cb)
}
