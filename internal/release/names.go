package release

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// ProjectName is the provider's release name; every file a registry reads starts with it.
const ProjectName = "terraform-provider-takoform"

// ManifestFile is the registry manifest at the repository root.
const ManifestFile = "terraform-registry-manifest.json"

// Builds are the ids of .goreleaser.yaml's builds: the provider and the two tools.
var Builds = []string{"provider", "hostsim", "conformance"}

// The names below are the registry's rules for a provider release (zip per platform,
// binary named with a v-prefixed version, one SHA256SUMS, the manifest beside it) and the
// project's own for the tools; the test holds goreleaser's output to them.

// ProviderZip is the provider archive of one platform.
func ProviderZip(version string, t Target) string {
	return fmt.Sprintf("%s_%s_%s_%s.zip", ProjectName, version, t.OS, t.Arch)
}

// ProviderBinary is the one file a provider zip holds.
func ProviderBinary(version string, t Target) string {
	return ProjectName + "_v" + version + exe(t)
}

// ToolArchive is a tool's archive of one platform: tar.gz, zip on Windows.
func ToolArchive(tool, version string, t Target) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("%s_%s_%s_%s%s", tool, version, t.OS, t.Arch, ext)
}

// ToolBinary is the one file a tool's archive holds.
func ToolBinary(tool string, t Target) string { return tool + exe(t) }

// SumsFile lists the SHA-256 of every archive and of the manifest.
func SumsFile(version string) string { return ProjectName + "_" + version + "_SHA256SUMS" }

// ManifestName is the manifest's name in dist/ and in a published release.
func ManifestName(version string) string { return ProjectName + "_" + version + "_manifest.json" }

func exe(t Target) string {
	if t.OS == "windows" {
		return ".exe"
	}
	return ""
}

// Metadata is the part of goreleaser's dist/metadata.json the names depend on.
type Metadata struct {
	ProjectName string `json:"project_name"`
	Version     string `json:"version"`
	Commit      string `json:"commit"`
}

// ReadMetadata reads dist/metadata.json.
func ReadMetadata(dist string) (Metadata, error) {
	var md Metadata
	raw, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		return md, fmt.Errorf("goreleaser left no metadata.json in %s: %v", dist, err)
	}
	if err := json.Unmarshal(raw, &md); err != nil {
		return md, fmt.Errorf("%s/metadata.json: %v", dist, err)
	}
	if md.ProjectName != ProjectName || md.Version == "" {
		return md, fmt.Errorf("%s/metadata.json names project %q version %q; want project %s and a version", dist, md.ProjectName, md.Version, ProjectName)
	}
	return md, nil
}

// PlaceManifest copies the repository's manifest into dist under ManifestName. goreleaser
// hashes it into the SHA256SUMS (checksum.extra_files) where it lies but copies it nowhere
// in a snapshot, so this is the step that puts it beside the sums (docs/decisions.md).
func PlaceManifest(root, dist string) (string, error) {
	md, err := ReadMetadata(dist)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(root, ManifestFile))
	if err != nil {
		return "", err
	}
	dst := filepath.Join(dist, ManifestName(md.Version))
	return dst, os.WriteFile(dst, b, 0o644)
}
