package release

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesAreTheRegistrys spells out every name of a release for a Linux and a
// Windows platform: what a registry and a user download, written out once here
// rather than derived from the functions under test.
func TestNamesAreTheRegistrys(t *testing.T) {
	linux, windows := Target{"linux", "amd64"}, Target{"windows", "arm64"}
	for _, tc := range []struct{ got, want string }{
		{ProviderZip("1.0.0", linux), "terraform-provider-takoform_1.0.0_linux_amd64.zip"},
		{ProviderZip("1.0.0", windows), "terraform-provider-takoform_1.0.0_windows_arm64.zip"},
		{ProviderBinary("1.0.0", linux), "terraform-provider-takoform_v1.0.0"},
		{ProviderBinary("1.0.0", windows), "terraform-provider-takoform_v1.0.0.exe"},
		{ToolArchive("hostsim", "1.0.0", linux), "hostsim_1.0.0_linux_amd64.tar.gz"},
		{ToolArchive("hostsim", "1.0.0", windows), "hostsim_1.0.0_windows_arm64.zip"},
		{ToolBinary("conformance", linux), "conformance"},
		{ToolBinary("conformance", windows), "conformance.exe"},
		{SumsFile("1.0.0"), "terraform-provider-takoform_1.0.0_SHA256SUMS"},
		{ManifestName("1.0.0"), "terraform-provider-takoform_1.0.0_manifest.json"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
}

// TestReadMetadataRefusesAnotherRelease: goreleaser's metadata.json must be this
// project's, with a version, and JSON; otherwise the names would be wrong and
// ReadMetadata says what it found.
func TestReadMetadataRefusesAnotherRelease(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"another project", `{"project_name":"other","version":"1.0.0"}`, `names project "other" version "1.0.0"; want project terraform-provider-takoform and a version`},
		{"no version", `{"project_name":"terraform-provider-takoform"}`, `names project "terraform-provider-takoform" version ""; want project`},
		{"not JSON", `{"project_name":`, "metadata.json: unexpected end of JSON input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dist := t.TempDir()
			if err := os.WriteFile(filepath.Join(dist, "metadata.json"), []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadMetadata(dist); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadMetadata = %v, want an error with %q", err, tc.want)
			}
		})
	}
	if _, err := ReadMetadata(t.TempDir()); err == nil || !strings.Contains(err.Error(), "goreleaser left no metadata.json in") {
		t.Errorf("ReadMetadata of an empty dist = %v", err)
	}
}
