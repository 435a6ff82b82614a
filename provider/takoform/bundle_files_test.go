package takoform

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

const (
	assetsType     = "takoform_static_asset_bundle"
	migrationsType = "takoform_sqlite_migration_set"
)

// localFile is one file of a files-authored bundle: its path in the bundle, media type
// and bytes.
type localFile struct{ path, mediaType, body string }

// filesConfig writes the files to a new directory and returns a configuration of
// typeName authoring them in the given order.
func filesConfig(t *testing.T, h *harness, typeName string, files ...localFile) values {
	t.Helper()
	dir := t.TempDir()
	ot := entryObjectType(h.kind(typeName))
	elems := make([]attr.Value, len(files))
	for i, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		elems[i] = types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"path": s(f.path), "content_type": s(f.mediaType),
			"content_file": s(p), "size": types.Int64Null(), "digest": types.StringNull()})
	}
	return values{aRevisionOwner: s("site"), aFiles: types.ListValueMust(ot, elems)}
}

// manifestDigestOf is the digest of the manifest the files describe, written out here
// from the published manifest shape: the kind's files member only, each entry with
// path, mediaType, size and the sha256 of its bytes, in the given order.
func manifestDigestOf(t *testing.T, kind string, files ...localFile) string {
	t.Helper()
	list := make([]any, len(files))
	for i, f := range files {
		list[i] = map[string]any{"path": f.path, "mediaType": f.mediaType, "size": int64(len(f.body)), "digest": blobDigest(f.body)}
	}
	d, err := wire.DigestValue(map[string]any{"apiVersion": "artifacts.takoform.com/v1alpha1", "kind": kind, "files": list})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// blobDigest is the content address of a blob: sha256 of its bytes.
func blobDigest(body string) string {
	sum := sha256.Sum256([]byte(body))
	return "sha256:" + hex.EncodeToString(sum[:])
}

var (
	indexHTML = localFile{"index.html", "text/html", "<!doctype html><p>hello</p>"}
	appCSS    = localFile{"css/app.css", "text/css", "p { color: teal; }"}
	initSQL   = localFile{"0001_init.sql", "application/sql", "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);"}
	indexSQL  = localFile{"0002_index.sql", "application/sql", "CREATE INDEX notes_body ON notes (body);"}
)

// TestStaticAssetBundleFromLocalFiles: the plan reads sizes and digests and plans the
// digest of a StaticAssetBundle manifest listing the files sorted by path (an
// inventory: reordering the configuration is the same bundle); apply uploads and
// creates; the plan after apply is empty.
func TestStaticAssetBundleFromLocalFiles(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := filesConfig(t, h, assetsType, indexHTML, appCSS)
	pr := h.plan(assetsType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	want := manifestDigestOf(t, "StaticAssetBundle", appCSS, indexHTML) // sorted by path
	if got := pr.planned.str("manifest_digest"); got != want {
		t.Fatalf("planned manifest_digest %s, want %s (a StaticAssetBundle manifest of files sorted by path)", got, want)
	}
	files := pr.planned[aFiles].(types.List).Elements()
	if sz := files[0].(types.Object).Attributes()["size"]; !sz.Equal(types.Int64Value(int64(len(indexHTML.body)))) {
		t.Errorf("files[0].size = %v: the planned list keeps the configured order", sz)
	}
	if pr2 := h.plan(assetsType, filesConfig(t, h, assetsType, appCSS, indexHTML), nil); pr2.planned.str("manifest_digest") != want {
		t.Errorf("reordered files plan %s, want the same bundle %s", pr2.planned.str("manifest_digest"), want)
	}
	before, _ := h.sim.Admin.Counters()
	st, d := h.apply(assetsType, cfg, nil, pr.planned)
	mustNoError(t, "apply", d)
	after, _ := h.sim.Admin.Counters()
	if st.str("manifest_digest") != want || st.str(aUID) == "" || after.Uploads-before.Uploads < 4 {
		t.Errorf("apply: digest %s uid %q uploads %d (want start, two blobs, commit)", st.str("manifest_digest"), st.str(aUID), after.Uploads-before.Uploads)
	}
	again := h.plan(assetsType, cfg, st)
	mustNoError(t, "second plan", again.diags)
	for k, v := range st {
		if !again.planned[k].Equal(v) {
			t.Errorf("second plan moves %s: %v -> %v", k, v, again.planned[k])
		}
	}
}

// TestMigrationSetKeepsItsOrder: a SQLiteMigrationSet's files are its migration
// history, so the manifest is a MigrationBundle in the configured order and another
// order is another set.
func TestMigrationSetKeepsItsOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := filesConfig(t, h, migrationsType, initSQL, indexSQL)
	pr := h.plan(migrationsType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	if got, want := pr.planned.str("manifest_digest"), manifestDigestOf(t, "MigrationBundle", initSQL, indexSQL); got != want {
		t.Fatalf("planned %s, want the MigrationBundle manifest in configured order %s", got, want)
	}
	st, d := h.apply(migrationsType, cfg, nil, pr.planned)
	mustNoError(t, "apply", d)
	if st.str("manifest_digest") != pr.planned.str("manifest_digest") || st.str(aUID) == "" {
		t.Errorf("apply: digest %s uid %q", st.str("manifest_digest"), st.str(aUID))
	}
	swapped := h.plan(migrationsType, filesConfig(t, h, migrationsType, indexSQL, initSQL), nil)
	mustNoError(t, "plan swapped", swapped.diags)
	if swapped.planned.str("manifest_digest") != manifestDigestOf(t, "MigrationBundle", indexSQL, initSQL) ||
		swapped.planned.str("manifest_digest") == pr.planned.str("manifest_digest") {
		t.Errorf("another migration order must be another set: %s", swapped.planned.str("manifest_digest"))
	}
}

// TestBundleFilesAreHeldToTheirManifestPolicy: each refusal names the entry's
// attribute path, and nothing is planned or uploaded.
func TestBundleFilesAreHeldToTheirManifestPolicy(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	const mediaType = `must match ^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$.`
	cases := []struct {
		typ   string
		files []localFile
		want  diagnostic
	}{
		{migrationsType, []localFile{initSQL, {"0002_seed.txt", "text/plain", "x"}}, errorDiag("Value not allowed",
			`files[1].content_type: "text/plain" is not a MigrationBundle media type; allowed: "application/sql".`).at("files[1].content_type")},
		{assetsType, []localFile{indexHTML, {"a.txt", "Text/Plain", "x"}}, errorDiag("Value does not match the required pattern",
			`files[1].content_type: "Text/Plain" `+mediaType).at("files[1].content_type")},
		{assetsType, []localFile{indexHTML, {"a.txt", "text/plain; charset=utf-8", "x"}}, errorDiag("Value does not match the required pattern",
			`files[1].content_type: "text/plain; charset=utf-8" `+mediaType).at("files[1].content_type")},
		{assetsType, []localFile{indexHTML, indexHTML}, errorDiag("Duplicate file path",
			`files[1].path: files[0] and files[1] both name "index.html"; every file of a manifest has its own path.`).at("files[1].path")},
		{assetsType, []localFile{{"../escape.html", "text/html", "x"}}, errorDiag("Value does not match the required pattern",
			`files[0].path: "../escape.html" must match ^[A-Za-z0-9_][A-Za-z0-9._-]*(/[A-Za-z0-9_][A-Za-z0-9._-]*)*$.`).at("files[0].path")},
	}
	for _, c := range cases {
		pr := h.plan(c.typ, filesConfig(t, h, c.typ, c.files...), nil)
		wantDiags(t, pr.diags, c.want)
		if pr.planned != nil {
			t.Errorf("%s %v: refused, yet planned %v", c.typ, c.files, pr.planned)
		}
	}
	if c, _ := h.sim.Admin.Counters(); c.Uploads != 0 || c.Mutations != 0 {
		t.Errorf("refused plans uploaded %d / mutated %d", c.Uploads, c.Mutations)
	}
}
