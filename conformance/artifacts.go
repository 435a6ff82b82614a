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
	return p.startUploadOf(ctx, c, startBody(manifest))
}

// startBody is the request body of an upload start of manifest.
func startBody(manifest any) []byte { return mustJSON(map[string]any{"manifest": manifest}) }

// startUploadOf is startUpload of a request body already encoded (startBody).
func (p *Probe) startUploadOf(ctx context.Context, c *Client, body []byte) (*Resp, *uploadStatus, error) {
	r, err := c.Do(ctx, Req{Method: http.MethodPost, Target: API + "/artifacts/uploads",
		Header: map[string]string{wire.HeaderIdempotencyKey: newKey()}, Body: body})
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

// uploadBundle uploads and commits a one-entry manifest of the kind f commits to
// (catalog/wire's manifest table) and returns its manifestDigest: for a module
// bundle, a main module exporting every handler; for a files bundle, one file of
// the first media type the kind admits.
func (p *Probe) uploadBundle(ctx context.Context, f *catalog.Form) (string, error) {
	mk := manifestKind(f)
	if mk.Member == wire.WorkerBundleManifest.Member {
		m := p.mainModule(f, p.run)
		return p.upload(ctx, p.P, manifestOf(mk.Kind, m.Name, m), m)
	}
	m := p.bundleFile(mk, p.run)
	return p.upload(ctx, p.P, filesManifestOf(mk.Kind, m), m)
}

// manifestKind is the manifest kind the artifact-addressed Form f commits to; a Form
// kind the wire table does not list commits to the manifest kind of its own name,
// else to a module bundle.
func manifestKind(f *catalog.Form) *wire.ManifestKind {
	if mk, ok := wire.ManifestKindOf(f.Ref.Kind); ok {
		return mk
	}
	if mk, ok := wire.ManifestKindNamed(f.Ref.Kind); ok {
		return mk
	}
	return wire.WorkerBundleManifest
}

// bundleFile is the one file of a files bundle: an ordered (history) kind gets a
// statement file, any other kind a page at the root; tag keeps its digest fresh.
func (p *Probe) bundleFile(mk *wire.ManifestKind, tag string) module {
	media := "text/html"
	if len(mk.MediaTypes) > 0 {
		media = mk.MediaTypes[0]
	}
	if mk.Ordered {
		src := "-- conformance " + tag + "\nCREATE TABLE conformance_" + strings.ReplaceAll(tag, "-", "_") + " (id INTEGER PRIMARY KEY);\n"
		return module{Name: "0001_conformance.sql", MediaType: media, Bytes: []byte(src)}
	}
	return module{Name: "index.html", MediaType: media, Bytes: []byte("<!-- conformance " + tag + " -->\n<p>conformance</p>\n")}
}

// filesManifestOf builds a files manifest of kind.
func filesManifestOf(kind string, files ...module) map[string]any {
	entries := make([]any, len(files))
	for i, m := range files {
		entries[i] = map[string]any{"path": m.Name, "mediaType": m.MediaType, "size": len(m.Bytes), "digest": wire.RawDigest(m.Bytes)}
	}
	return map[string]any{"apiVersion": ArtifactAPIVersion, "kind": kind, "files": entries}
}

// artifactForm picks the installed artifact-addressed Form the artifact checks
// upload modules for: the first whose manifest kind carries loadable modules, else
// the first.
func (p *Probe) artifactForm() (*catalog.Form, error) {
	var first *catalog.Form
	for _, f := range p.S.Forms {
		if !artifactAddressed(f) {
			continue
		}
		if len(manifestKind(f).Loadable) > 0 {
			return f, nil
		}
		if first == nil {
			first = f
		}
	}
	if first != nil {
		return first, nil
	}
	return nil, notApplicable("the host installs no artifact-addressed Form%s", p.S.foreignNote())
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
