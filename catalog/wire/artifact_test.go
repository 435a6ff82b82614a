package wire

import "testing"

// Each artifact-addressed Form kind commits to its own manifest kind, and each kind's
// media-type policy is the one docs/protocol.md#artifacts states.
func TestManifestKinds(t *testing.T) {
	for form, manifest := range map[string]string{"WorkerBundle": "WorkerBundle", "StaticAssetBundle": "StaticAssetBundle", "SQLiteMigrationSet": "MigrationBundle"} {
		m, ok := ManifestKindOf(form)
		if !ok || m.Kind != manifest {
			t.Errorf("%s commits to %v, want %s", form, m, manifest)
		}
		if n, ok := ManifestKindNamed(manifest); !ok || n != m {
			t.Errorf("ManifestKindNamed(%s) = %v", manifest, n)
		}
	}
	if _, ok := ManifestKindOf("ModuleWorker"); ok {
		t.Error("ModuleWorker is not artifact-addressed")
	}
	for _, c := range []struct {
		m         *ManifestKind
		mediaType string
		admits    bool
	}{
		{WorkerBundleManifest, "application/javascript+module", true},
		{WorkerBundleManifest, "application/source-map+json", true},
		{WorkerBundleManifest, "application/json", false},
		{StaticAssetBundleManifest, "text/html", true},
		{StaticAssetBundleManifest, "image/svg+xml", true},
		{StaticAssetBundleManifest, "text/html; charset=utf-8", false},
		{StaticAssetBundleManifest, "Text/HTML", false},
		{MigrationBundleManifest, "application/sql", true},
		{MigrationBundleManifest, "text/plain", false},
	} {
		if got := c.m.Admits(c.mediaType); got != c.admits {
			t.Errorf("%s admits %q: %v, want %v", c.m.Kind, c.mediaType, got, c.admits)
		}
	}
	if WorkerBundleManifest.IsLoadable("application/source-map+json") || !WorkerBundleManifest.IsLoadable("application/wasm") {
		t.Error("a source map is auxiliary, wasm loadable")
	}
	if WorkerBundleManifest.MaxEntries != 4096 || StaticAssetBundleManifest.MaxEntries != 16384 || MigrationBundleManifest.MaxEntries != 16384 || MaxBundleBytes != 10485760 {
		t.Error("the portable ceilings are 4096 modules, 16384 files and 10 MiB")
	}
}

// The manifest path grammar, and the members each kind's entries use.
func TestArtifactPaths(t *testing.T) {
	for p, ok := range map[string]bool{"index.html": true, "assets/app.js": true, "_x/y-z.1": true, "": false, "/a": false, "a/": false,
		"a//b": false, "a/./b": false, "a/../b": false, ".": false, "a b": false, "a\\b": false, "é": false,
		string(make([]byte, 241)): false} {
		if ValidArtifactPath(p) != ok {
			t.Errorf("ValidArtifactPath(%q) = %v", p, !ok)
		}
	}
	long := ""
	for len(long) < MaxArtifactPath {
		long += "a"
	}
	if !ValidArtifactPath(long) || ValidArtifactPath(long+"a") {
		t.Error("240 characters are a path, 241 are not")
	}
	if WorkerBundleManifest.PathMember != "name" || StaticAssetBundleManifest.PathMember != "path" || MigrationBundleManifest.PathMember != "path" {
		t.Error("modules are named, files have paths")
	}
	if !WorkerBundleManifest.HasMainModule() || StaticAssetBundleManifest.HasMainModule() || MigrationBundleManifest.HasMainModule() {
		t.Error("only a WorkerBundle has a main module")
	}
	if a := WorkerBundleManifest.Auxiliary(); len(a) != 1 || a[0] != "application/source-map+json" {
		t.Errorf("auxiliary module types %v", a)
	}
}
