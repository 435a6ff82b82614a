package hostsim_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// kSite is the static asset bundle kind of the family.
const kSite = "StaticAssetBundle"

// fieldOf is details.field of an error envelope.
func fieldOf(t testing.TB, r *reply) string {
	t.Helper()
	e, _ := r.json()["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	return fmt.Sprint(d["field"])
}

// file is one entry of a manifest a test uploads: its path (a module's name), media
// type and bytes.
type file struct{ Path, MediaType, Body string }

// manifestDoc is the manifest of kind with entries; main names the main module of a
// kind that has one.
func manifestDoc(kind, main string, files ...file) map[string]any {
	mk, _ := wire.ManifestKindNamed(kind)
	var list []any
	for _, f := range files {
		list = append(list, map[string]any{mk.PathMember: f.Path, "mediaType": f.MediaType, "size": len(f.Body), "digest": wire.RawDigest([]byte(f.Body))})
	}
	m := map[string]any{"apiVersion": wire.ArtifactAPIVersion, "kind": kind, mk.Member: list}
	if main != "" {
		m["mainModule"] = main
	}
	return m
}

// startBody is the upload-start body of a manifest.
func startBody(manifest map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{"manifest": manifest})
	return b
}

// uploadManifest runs the artifact flow for a manifest of kind and returns its digest.
func (c *client) uploadManifest(kind, main string, files ...file) string {
	c.t.Helper()
	st := c.start(startBody(manifestDoc(kind, main, files...))).status(201).json()
	id := fmt.Sprint(st["uploadId"])
	missing := map[string]bool{}
	for _, d := range st["missingBlobs"].([]any) {
		missing[fmt.Sprint(d)] = true
	}
	for _, f := range files {
		if d := wire.RawDigest([]byte(f.Body)); missing[d] {
			c.putBlob(id, d, []byte(f.Body)).status(201)
			delete(missing, d)
		}
	}
	return fmt.Sprint(c.commit(id, newKey()).status(201).json()["manifestDigest"])
}

// uploadSite uploads a StaticAssetBundle manifest of the named files (HTML by name).
func (c *client) uploadSite(paths ...string) string {
	c.t.Helper()
	sort.Strings(paths)
	var files []file
	for _, p := range paths {
		files = append(files, file{p, "text/html", "<!doctype html><title>" + p + "</title>\n"})
	}
	return c.uploadManifest("StaticAssetBundle", "", files...)
}

// artifactSpec is spec for a Form that is not artifact-backed, and a spec naming a
// freshly committed manifest of the Form's manifest kind otherwise (the fixture's
// digest names nothing this host holds; docs/protocol.md#artifacts).
func (c *client) artifactSpec(f *catalog.Form, spec map[string]any) map[string]any {
	c.t.Helper()
	mk, ok := wire.ManifestKindOf(f.Ref.Kind)
	if !ok {
		return spec
	}
	switch {
	case mk.HasMainModule():
		return map[string]any{"manifestDigest": c.upload(allHandlers)}
	case mk.Ordered:
		return map[string]any{"manifestDigest": c.uploadManifest(mk.Kind, "", file{"0001_init.sql", "application/sql", "create table t (x integer);\n"})}
	}
	return map[string]any{"manifestDigest": c.uploadSite("index.html")}
}
