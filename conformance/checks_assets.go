package conformance

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// The two notFoundHandling facts of docs/protocol.md#static-assets the check needs:
// the value that falls back, and the path it falls back to.
const (
	spaFallback = "single_page_application"
	spaIndex    = "index.html"
)

// assetsShape is a Form whose closed object property holds a reference to a files
// bundle and a notFoundHandling enum offering the fallback (a WorkerVersion's assets).
type assetsShape struct {
	form          *catalog.Form
	object        string // the object property, "assets"
	ref, mode     string // its reference and enum members
	bundle        *catalog.Form
	bundleKind    *wire.ManifestKind
	otherBooleans []string // its boolean members, sent false when the spec has none
}

// assetsForm finds the installed Form with static assets, found by shape.
func (p *Probe) assetsForm() (*assetsShape, error) {
	for _, f := range p.S.Forms {
		for _, fl := range f.Fields {
			if fl.Kind != catalog.FieldObject {
				continue
			}
			a := &assetsShape{form: f, object: fl.Wire}
			for _, m := range fl.Members {
				switch {
				case m.Kind == catalog.FieldReference:
					a.ref = m.Wire
				case m.Kind == catalog.FieldStringEnum && containsString(m.Enum, spaFallback):
					a.mode = m.Wire
				case m.Kind == catalog.FieldBoolean:
					a.otherBooleans = append(a.otherBooleans, m.Wire)
				}
			}
			if a.ref == "" || a.mode == "" {
				continue
			}
			for _, rel := range f.Relations {
				if rel.Pointer != "/"+fl.Wire+"/"+a.ref {
					continue
				}
				t, err := p.targetForm(rel)
				if err != nil {
					return nil, err
				}
				mk, ok := wire.ManifestKindOf(t.Ref.Kind)
				if ok && !mk.HasMainModule() && mk.Admits("text/html") {
					a.bundle, a.bundleKind = t, mk
					return a, nil
				}
			}
		}
	}
	return nil, notApplicable("the host installs no Form with static assets (a closed object referring to a files bundle, falling back to %s)%s", spaIndex, p.S.foreignNote())
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// siteBundle uploads a files manifest of paths and creates a bundle resource over it.
func (p *Probe) siteBundle(ctx context.Context, a *assetsShape, tag string, paths ...string) (string, error) {
	var files []module
	for _, path := range paths {
		files = append(files, module{Name: path, MediaType: "text/html", Bytes: []byte(fmt.Sprintf("<!-- conformance %s %s %s -->\n", p.run, tag, path))})
	}
	digest, err := p.upload(ctx, p.P, filesManifestOf(a.bundleKind.Kind, files...), files...)
	if err != nil {
		return "", setup("uploading the "+a.bundle.Ref.Kind+" manifest", err)
	}
	name := p.Name(slugPrefix(a.bundle))
	if _, err := p.create(ctx, a.bundle, name, map[string]any{a.bundle.Fields[0].Wire: digest}); err != nil {
		return "", setup("creating the "+a.bundle.Ref.Kind, err)
	}
	return name, nil
}

// withAssets is spec with its assets naming bundle under notFoundHandling mode.
func (a *assetsShape) withAssets(spec map[string]any, bundle, mode string) map[string]any {
	out := cloneSpec(spec)
	obj := map[string]any{}
	if cur, ok := spec[a.object].(map[string]any); ok {
		for k, v := range cur {
			obj[k] = v
		}
	}
	for _, b := range a.otherBooleans {
		if _, ok := obj[b]; !ok {
			obj[b] = false
		}
	}
	obj[a.ref] = map[string]any{"apiVersion": a.bundle.Ref.APIVersion, "kind": a.bundle.Ref.Kind, "name": bundle}
	obj[a.mode] = mode
	out[a.object] = obj
	return out
}

func checkStaticAssetSPAPaths(ctx context.Context, p *Probe) error {
	a, err := p.assetsForm()
	if err != nil {
		return err
	}
	spec, err := p.specFor(ctx, a.form)
	if err != nil {
		return err
	}
	bare, err := p.siteBundle(ctx, a, "bare", "about.html")
	if err != nil {
		return err
	}
	name := p.Name(slugPrefix(a.form))
	r, err := p.apply(ctx, p.P, a.form.Ref, name, a.withAssets(spec, bare, spaFallback), "")
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeInvalidArgument); err != nil {
		return failf("%s (%s.%s %s over a %s whose manifest declares no %s)", err, a.object, a.mode, spaFallback, a.bundle.Ref.Kind, spaIndex)
	}
	if err := p.notCreated(ctx, a.form.Ref, name, "a refused "+spaFallback+" version"); err != nil {
		return err
	}
	indexed, err := p.siteBundle(ctx, a, "indexed", spaIndex, "about.html")
	if err != nil {
		return err
	}
	r, err = p.apply(ctx, p.P, a.form.Ref, p.Name(slugPrefix(a.form)), a.withAssets(spec, indexed, spaFallback), "")
	if err != nil {
		return err
	}
	if _, err := p.settle(ctx, p.P, r, http.StatusCreated); err != nil {
		return failf("%v (%s %s over a %s declaring %s must be accepted)", err, a.object+"."+a.mode, spaFallback, a.bundle.Ref.Kind, spaIndex)
	}
	return nil
}

// ceilingsOf are the published bundle ceilings of an artifact-backed Form, or the
// portable ones of its manifest kind when the profile is silent.
func (p *Probe) ceilingsOf(f *catalog.Form, mk *wire.ManifestKind) (files, bytes int64) {
	files, bytes = mk.MaxEntries, wire.MaxBundleBytes
	if prof := p.profile(f); prof != nil {
		if n, ok := prof.Limits["maximumBundleFiles"]; ok {
			files = n
		}
		if n, ok := prof.Limits["maximumBundleBytes"]; ok {
			bytes = n
		}
	}
	return files, bytes
}

// overStarts holds the upload start bodies overStart encoded, by overKey.
var overStarts sync.Map

type overKey struct {
	kind    string
	n, size int64
}

// overStart is the body of an upload start of overManifest(mk, n, size), encoded once
// per process: a manifest one entry over a ceiling of 16384 is 1.5 MB, and a run
// against a host on several profiles (the self-test's sweeps: hundreds) sends the same
// few again and again.
func overStart(mk *wire.ManifestKind, n, size int64) []byte {
	k := overKey{mk.Kind, n, size}
	if b, ok := overStarts.Load(k); ok {
		return b.([]byte)
	}
	b, _ := overStarts.LoadOrStore(k, startBody(overManifest(mk, n, int(size))))
	return b.([]byte)
}

// overManifest is a manifest of kind mk with n entries, the first declaring size.
func overManifest(mk *wire.ManifestKind, n int64, size int) map[string]any {
	mediaType, ext := "text/plain", "txt"
	if !mk.Admits(mediaType) {
		mediaType, ext = mk.MediaTypes[0], "sql"
	}
	entries := make([]any, n)
	for i := range entries {
		sz, digest := 0, wire.RawDigest(nil)
		if i == 0 {
			sz, digest = size, wire.RawDigest([]byte(fmt.Sprint(size)))
		}
		entries[i] = map[string]any{mk.PathMember: fmt.Sprintf("f%05d.%s", i, ext), "mediaType": mediaType, "size": sz, "digest": digest}
	}
	m := map[string]any{"apiVersion": ArtifactAPIVersion, "kind": mk.Kind, mk.Member: entries}
	if mk.HasMainModule() {
		m["mainModule"] = "f00000." + ext
	}
	return m
}

func checkBundleCeilings(ctx context.Context, p *Probe) error {
	measured := 0
	for _, f := range p.S.Forms {
		mk, ok := wire.ManifestKindOf(f.Ref.Kind)
		if !ok || !artifactAddressed(f) {
			continue
		}
		files, bytes := p.ceilingsOf(f, mk)
		if files < 1 || bytes < 1 || files > mk.MaxEntries || bytes >= 268435456 {
			continue // a ceiling no manifest can exceed by one entry or one byte
		}
		for _, c := range []struct {
			label   string
			n, size int64
		}{
			{fmt.Sprintf("a %s manifest of %d entries, over maximumBundleFiles %d of %s", mk.Kind, files+1, files, f.Ref.Kind), files + 1, 0},
			{fmt.Sprintf("a %s manifest declaring %d bytes, over maximumBundleBytes %d of %s", mk.Kind, bytes+1, bytes, f.Ref.Kind), 1, bytes + 1},
		} {
			if err := p.refuseStart(ctx, c.label, overStart(mk, c.n, c.size)); err != nil {
				return err
			}
		}
		measured++
	}
	if measured == 0 {
		return notApplicable("the host installs no artifact-addressed Form the runner knows the manifest kind of%s", p.S.foreignNote())
	}
	return nil
}
