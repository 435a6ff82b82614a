package hostsim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// files are n empty files of a manifest (one blob, declared n times).
func files(n int, ext, mediaType string) []file {
	out := make([]file, n)
	for i := range out {
		out[i] = file{fmt.Sprintf("f%03d.%s", i, ext), mediaType, ""}
	}
	return out
}

// maximumBundleFiles and maximumBundleBytes of the Form that commits to a manifest
// kind bound every upload of that kind at start and commit, and the manifest again
// when a Form references it, under the profile in force then (docs/protocol.md#support).
func TestBundleCeilingsAtStartCommitAndApply(t *testing.T) {
	cat := testCatalog(t)
	db := filepath.Join(t.TempDir(), "sim.db")
	full := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db})
	c := newClient(t, full.URL, "sim-primary")
	// Under full: 17 files start, commit and are referenced.
	over := startBody(manifestDoc(kSite, "", files(17, "html", "text/html")...))
	pending := fmt.Sprint(c.start(over).status(201).json()["uploadId"])
	committed := c.uploadManifest(kSite, "", append(files(16, "html", "text/html"), file{"extra.txt", "text/plain", "x"})...)
	full.Host.Close()

	tight := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db, Profile: "tight-limits"})
	w := &world{t: t, c: newClient(t, tight.URL, "sim-primary"), cat: cat, space: "prod"}
	// The published values.
	sf := w.f(kSite)
	l := w.c.do("GET", fmt.Sprintf("%s/support/forms/%s/%s/%s", api, sf.Ref.APIVersion, sf.Ref.Kind, sf.Ref.DefinitionVersion), nil, nil).status(200).json()["limits"]
	if fmt.Sprint(l) != "map[maximumBundleBytes:1.048576e+06 maximumBundleFiles:16]" {
		t.Fatalf("tight-limits StaticAssetBundle limits %v", l)
	}
	// Upload start: over, refused naming the ceiling and where it comes from; 16 pass.
	for _, kind := range []struct{ manifest, form, ext, mediaType, main string }{
		{"StaticAssetBundle", "StaticAssetBundle", "html", "text/html", ""},
		{"MigrationBundle", "SQLiteMigrationSet", "sql", "application/sql", ""},
		{"WorkerBundle", "WorkerBundle", "js", "text/plain", "f000.js"},
	} {
		before, _ := tight.Admin.Counters()
		r := w.c.start(startBody(manifestDoc(kind.manifest, kind.main, files(17, kind.ext, kind.mediaType)...))).refused("artifact_invalid", 400)
		for _, says := range []string{"declares 17", "over maximumBundleFiles 16", `profile \"tight-limits\", limits of ` + kind.form} {
			if !contains(r.body, says) {
				t.Fatalf("%s over maximumBundleFiles must say %q: %s", kind.manifest, says, r.body)
			}
		}
		if after, _ := tight.Admin.Counters(); after.Uploads != before.Uploads {
			t.Fatalf("a refused upload start counted")
		}
		w.c.start(startBody(manifestDoc(kind.manifest, kind.main, files(16, kind.ext, kind.mediaType)...))).status(201)
	}
	// Commit: the session started under full is held to the ceiling in force now.
	if r := w.c.putBlob(pending, "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", nil); r.code != 201 && r.code != 204 {
		t.Fatalf("the empty blob: %s", r.body)
	}
	if r := w.c.commit(pending, newKey()).refused("artifact_invalid", 400); !contains(r.body, "over maximumBundleFiles 16") {
		t.Fatalf("commit over the ceiling: %s", r.body)
	}
	// Apply: a manifest committed under full is refused where it is referenced now.
	r := w.refusedCreate(tight, kSite, "big", map[string]any{"manifestDigest": committed}, "artifact_invalid", 400)
	if !contains(r.body, "over maximumBundleFiles 16") || fieldOf(t, r) != "/manifestDigest" {
		t.Fatalf("apply over the ceiling: %s", r.body)
	}
}

// The fault artifacts.over-limits lets a manifest over the published ceilings
// through at upload start and at apply.
func TestBundleCeilingFault(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t), Profile: "tight-limits"})
	w := &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: testCatalog(t), space: "prod"}
	over := startBody(manifestDoc(kSite, "", files(17, "html", "text/html")...))
	broken(t, sim, "artifacts.over-limits",
		func() { w.c.start(over).refused("artifact_invalid", 400) },
		func() { w.c.start(over).status(201) })
	// A manifest committed under the fault is refused again once it is disarmed.
	arm(t, sim, "artifacts.over-limits")
	digest := w.c.uploadManifest(kSite, "", files(17, "html", "text/html")...)
	disarm(t, sim)
	n := 0
	name := func() string { n++; return fmt.Sprintf("big-%d", n) }
	broken(t, sim, "artifacts.over-limits",
		func() {
			w.refusedCreate(sim, kSite, name(), map[string]any{"manifestDigest": digest}, "artifact_invalid", 400)
		},
		func() { w.create(kSite, name(), map[string]any{"manifestDigest": digest}).status(201) })
}

// Each artifact-backed Form takes only the manifest kind it commits to
// (artifact_invalid naming /manifestDigest, nothing stored), and a migration file of
// another media type than application/sql never starts an upload.
func TestArtifactBackedFormsTakeTheirManifestKind(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	w := &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: testCatalog(t), space: "prod"}
	worker := w.c.upload(allHandlers)
	site := w.c.uploadSite("index.html")
	migrations := w.c.uploadManifest("MigrationBundle", "", file{"0001_init.sql", "application/sql", "create table t (x);\n"})
	for _, c := range []struct {
		kind, digest, says string
	}{
		{kSite, worker, "is a WorkerBundle manifest; this reference needs a StaticAssetBundle manifest"},
		{kBundle, site, "is a StaticAssetBundle manifest; this reference needs a WorkerBundle manifest"},
		{"SQLiteMigrationSet", site, "needs a MigrationBundle manifest"},
		{kSite, migrations, "is a MigrationBundle manifest"},
	} {
		r := w.refusedCreate(sim, c.kind, "wrong", map[string]any{"manifestDigest": c.digest}, "artifact_invalid", 400)
		if !contains(r.body, c.says) || fieldOf(t, r) != "/manifestDigest" {
			t.Fatalf("%s over another kind's manifest: %s", c.kind, r.body)
		}
	}
	w.create(kSite, "site", map[string]any{"manifestDigest": site}).status(201)
	w.create("SQLiteMigrationSet", "set", map[string]any{"manifestDigest": migrations}).status(201)
	r := w.c.start(startBody(manifestDoc("MigrationBundle", "", file{"0001_init.sql", "text/plain", "create table t (x);\n"}))).refused("artifact_invalid", 400)
	if !contains(r.body, "exactly application/sql") || fieldOf(t, r) != "/manifest/files/0/mediaType" {
		t.Fatalf("a migration file of another media type: %s", r.body)
	}
	// StaticAssetBundle files take any lowercase type/subtype, never with parameters.
	w.c.start(startBody(manifestDoc("StaticAssetBundle", "", file{"logo.svg", "image/svg+xml", "<svg/>"}))).status(201)
	w.c.start(startBody(manifestDoc("StaticAssetBundle", "", file{"index.html", "text/html; charset=utf-8", "x"}))).refused("artifact_invalid", 400)
}

// A WorkerVersion holds each bundle it pins to the lowest ceilings of the
// bundle's Form and of its own (docs/protocol.md#support), under the profile in
// force when the version is applied: a static asset bundle of 17 files, taken
// under full, refused where a version pins it under tight-limits (its Form's 16
// files), and a worker bundle refused under a WorkerVersion maximumBundleBytes
// below its bytes (the version's own ceiling, which no bundle Form states).
func TestAVersionHoldsWhatItPinsToBothFormsCeilings(t *testing.T) {
	cat := testCatalog(t)
	db := filepath.Join(t.TempDir(), "sim.db")
	full := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db})
	w := &world{t: t, c: newClient(t, full.URL, "sim-primary"), cat: cat, space: "prod"}
	w.create(kWorker, "api", map[string]any{}).status(201)
	w.bundle("b1", allHandlers)
	big := []string{"index.html"}
	for _, f := range files(16, "html", "text/html") {
		big = append(big, f.Path)
	}
	w.site("big", big...)
	w.site("small", "index.html")
	full.Host.Close()
	version := func(site string) map[string]any {
		spec := w.assetVersion(site, "single_page_application")
		spec["handlers"] = []any{"fetch"}
		return spec
	}

	tight := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db, Profile: "tight-limits"})
	w.c = newClient(t, tight.URL, "sim-primary")
	r := w.refusedCreate(tight, kVersion, "v-big", version("big"), "artifact_invalid", 400)
	for _, says := range []string{"declares 17", "over maximumBundleFiles 16", `profile \"tight-limits\", limits of StaticAssetBundle`} {
		if !contains(r.body, says) {
			t.Errorf("a version pinning 17 files under tight-limits must say %q: %s", says, r.body)
		}
	}
	if f := fieldOf(t, r); f != "/assets/bundle" {
		t.Errorf("details.field %s, want /assets/bundle: %s", f, r.body)
	}
	w.create(kVersion, "v-small", version("small")).status(201)
	tight.Host.Close()

	profile := filepath.Join(t.TempDir(), "thin.json")
	if err := os.WriteFile(profile, []byte(`{"name": "thin", "extends": "full", "limits": {"WorkerVersion": {"maximumBundleBytes": 32}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	thin := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db, Profile: profile})
	w.c = newClient(t, thin.URL, "sim-primary")
	r = w.refusedCreate(thin, kVersion, "v-thin", version("small"), "artifact_invalid", 400)
	for _, says := range []string{"over maximumBundleBytes 32", `profile \"thin\", limits of WorkerVersion`} {
		if !contains(r.body, says) {
			t.Errorf("a version over its own maximumBundleBytes must say %q: %s", says, r.body)
		}
	}
	if f := fieldOf(t, r); f != "/bundle" {
		t.Errorf("details.field %s, want /bundle: %s", f, r.body)
	}
}
