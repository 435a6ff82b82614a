package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testVersion = "1.2.3-snapshot-abcdef0"

var testMatrix = map[string][]Target{
	"provider": {{"linux", "amd64"}, {"windows", "arm64"}},
	"hostsim":  {{"linux", "amd64"}, {"windows", "arm64"}}, "conformance": {{"linux", "amd64"}, {"windows", "arm64"}},
}

// fakeRelease writes a root with the manifest and a dist that Check accepts; change
// edits the files (name -> content, nil removes) before the sums are written.
func fakeRelease(t *testing.T, manifest string, change func(files map[string][]byte)) (root, dist string) {
	t.Helper()
	root, dist = t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ManifestFile), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"metadata.json":           fmt.Appendf(nil, `{"project_name":%q,"version":%q,"commit":"abcdef0123"}`, ProjectName, testVersion),
		ManifestName(testVersion): []byte(manifest),
	}
	for _, tg := range testMatrix["provider"] {
		files[ProviderZip(testVersion, tg)] = zipOf(t, ProviderBinary(testVersion, tg))
	}
	for _, tool := range Builds[1:] {
		for _, tg := range testMatrix[tool] {
			name := ToolArchive(tool, testVersion, tg)
			if strings.HasSuffix(name, ".zip") {
				files[name] = zipOf(t, ToolBinary(tool, tg))
			} else {
				files[name] = tgzOf(t, ToolBinary(tool, tg))
			}
		}
	}
	var sums strings.Builder
	for name, b := range files {
		if name != "metadata.json" {
			sum := sha256.Sum256(b)
			fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
		}
	}
	files[SumsFile(testVersion)] = []byte(sums.String())
	if change != nil {
		change(files)
	}
	for name, b := range files {
		if b != nil {
			if err := os.WriteFile(filepath.Join(dist, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return root, dist
}

const goodManifest = `{"version":1,"metadata":{"protocol_versions":["6.0"]}}` + "\n"

func TestCheckAcceptsAWellFormedRelease(t *testing.T) {
	root, dist := fakeRelease(t, goodManifest, nil)
	bad, err := Check(root, dist, testMatrix)
	if err != nil || len(bad) != 0 {
		t.Fatalf("Check = %v, %v; want nothing wrong", bad, err)
	}
}

// TestCheckFindsEachBreak breaks one rule per case and expects Check to name it.
func TestCheckFindsEachBreak(t *testing.T) {
	linux := Target{"linux", "amd64"}
	cases := []struct {
		name, manifest, want string
		change               func(map[string][]byte)
	}{
		{"binary without v", goodManifest, "want only " + ProviderBinary(testVersion, linux), func(f map[string][]byte) {
			f[ProviderZip(testVersion, linux)] = zipOf(t, ProjectName+"_"+testVersion)
		}},
		{"readme in the zip", goodManifest, "want only", func(f map[string][]byte) {
			f[ProviderZip(testVersion, linux)] = zipOf(t, ProviderBinary(testVersion, linux), "README.md")
		}},
		{"zip missing", goodManifest, ProviderZip(testVersion, linux), func(f map[string][]byte) {
			f[ProviderZip(testVersion, linux)] = nil
		}},
		{"tool archive missing", goodManifest, ToolArchive("hostsim", testVersion, linux), func(f map[string][]byte) {
			f[ToolArchive("hostsim", testVersion, linux)] = nil
		}},
		{"digest wrong", goodManifest, "the file's digest is", func(f map[string][]byte) {
			f[ProviderZip(testVersion, linux)] = zipOf(t, ProviderBinary(testVersion, linux), ProviderBinary(testVersion, linux)+"x")
		}},
		{"sums miss the manifest", goodManifest, "does not list " + ManifestName(testVersion), func(f map[string][]byte) {
			var keep []string
			for _, l := range strings.Split(string(f[SumsFile(testVersion)]), "\n") {
				if !strings.HasSuffix(l, ManifestName(testVersion)) {
					keep = append(keep, l)
				}
			}
			f[SumsFile(testVersion)] = []byte(strings.Join(keep, "\n"))
		}},
		{"manifest not placed", goodManifest, "missing from dist", func(f map[string][]byte) { f[ManifestName(testVersion)] = nil }},
		{"protocol 5", `{"version":1,"metadata":{"protocol_versions":["5.0"]}}`, "protocol 6.0", nil},
		{"tool archive holding another file", goodManifest, "want only " + ToolBinary("hostsim", linux), func(f map[string][]byte) {
			f[ToolArchive("hostsim", testVersion, linux)] = tgzOf(t, "README.md")
		}},
		{"binary not executable", goodManifest, ProviderBinary(testVersion, linux) + " is not executable", func(f map[string][]byte) {
			f[ProviderZip(testVersion, linux)] = zipWithMode(t, 0o644, ProviderBinary(testVersion, linux))
		}},
		{"sums list a file more", goodManifest, "lists 8 files, want 7", func(f map[string][]byte) {
			sum := sha256.Sum256(f["metadata.json"])
			f[SumsFile(testVersion)] = append(f[SumsFile(testVersion)], fmt.Sprintf("%s  metadata.json\n", hex.EncodeToString(sum[:]))...)
		}},
		{"manifest version 2", `{"version":2,"metadata":{"protocol_versions":["6.0"]}}`, "says version 2", nil},
		{"manifest member unknown", `{"version":1,"metadata":{"protocol_versions":["6.0"]},"extra":1}`, `unknown field "extra"`, nil},
		{"placed manifest differs", goodManifest, ManifestName(testVersion) + " differs from " + ManifestFile, func(f map[string][]byte) {
			f[ManifestName(testVersion)] = []byte("{}\n")
		}},
		{"not a version", goodManifest, "not a semantic version", func(f map[string][]byte) {
			f["metadata.json"] = fmt.Appendf(nil, `{"project_name":%q,"version":"1.2","commit":"x"}`, ProjectName)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, dist := fakeRelease(t, c.manifest, c.change)
			bad, err := Check(root, dist, testMatrix)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(bad, "\n"), c.want) {
				t.Errorf("Check = %q; want a problem naming %q", bad, c.want)
			}
		})
	}
}

// TestCheckHoldsTheBuildsAndWindowsModes: a matrix lacking a build is named, and
// a Windows binary needs no executable bit (its archive's mode means nothing there).
func TestCheckHoldsTheBuildsAndWindowsModes(t *testing.T) {
	root, dist := fakeRelease(t, goodManifest, nil)
	short := map[string][]Target{"provider": testMatrix["provider"], "hostsim": testMatrix["hostsim"]}
	if bad, err := Check(root, dist, short); err != nil || !strings.Contains(strings.Join(bad, "\n"), "the builds are [hostsim provider], want") {
		t.Errorf("Check of a matrix without conformance = %q, %v; want the builds named", bad, err)
	}
	windows := Target{"windows", "arm64"}
	root, dist = fakeRelease(t, goodManifest, func(f map[string][]byte) {
		f[ProviderZip(testVersion, windows)] = zipWithMode(t, 0o644, ProviderBinary(testVersion, windows))
	})
	bad, err := Check(root, dist, testMatrix)
	if err != nil || strings.Contains(strings.Join(bad, "\n"), "is not executable") {
		t.Errorf("Check of a Windows binary without the executable bit = %q, %v; want no mode problem", bad, err)
	}
}

func TestPlaceManifestNamesItForTheVersion(t *testing.T) {
	root, dist := fakeRelease(t, goodManifest, func(f map[string][]byte) { f[ManifestName(testVersion)] = nil })
	p, err := PlaceManifest(root, dist)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != ProjectName+"_"+testVersion+"_manifest.json" {
		t.Errorf("placed as %s", p)
	}
	if bad, _ := Check(root, dist, testMatrix); len(bad) != 0 {
		t.Errorf("after PlaceManifest Check = %v", bad)
	}
}

func zipOf(t *testing.T, names ...string) []byte {
	t.Helper()
	return zipWithMode(t, 0o755, names...)
}

// zipWithMode is a zip of the named files, each with mode.
func zipWithMode(t *testing.T, mode os.FileMode, names ...string) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "a.zip")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := zip.NewWriter(f)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		h.SetMode(mode)
		e, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		e.Write([]byte("binary " + n))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tgzOf(t *testing.T, name string) []byte {
	t.Helper()
	var buf strings.Builder
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := []byte("binary " + name)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	gz.Close()
	return []byte(buf.String())
}
