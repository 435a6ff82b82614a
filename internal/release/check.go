package release

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/takokit/takokit/internal/fsx"
)

// Check lists every way dist differs from a release of matrix (build id -> platforms): a
// registry version, each provider zip holding its binary alone, each tool archive its
// binary alone, the manifest the registry reads, and a SHA256SUMS listing exactly the
// archives and the manifest with their true digests. root holds the committed manifest.
func Check(root, dist string, matrix map[string][]Target) ([]string, error) {
	md, err := ReadMetadata(dist)
	if err != nil {
		return nil, err
	}
	v := md.Version
	var bad []string
	if !semver.IsValid("v"+v) || semver.Canonical("v"+v) != "v"+v {
		bad = append(bad, fmt.Sprintf("version %q is not a semantic version a registry accepts (MAJOR.MINOR.PATCH[-PRERELEASE])", v))
	}
	if ids := slices.Sorted(maps.Keys(matrix)); !slices.Equal(ids, slices.Sorted(slices.Values(Builds))) {
		bad = append(bad, fmt.Sprintf("the builds are %v, want %v", ids, Builds))
	}
	want := []string{ManifestName(v)}
	for _, t := range matrix["provider"] {
		want = append(want, ProviderZip(v, t))
		bad = append(bad, holdsOnly(filepath.Join(dist, ProviderZip(v, t)), ProviderBinary(v, t))...)
	}
	for _, tool := range Builds[1:] {
		for _, t := range matrix[tool] {
			want = append(want, ToolArchive(tool, v, t))
			bad = append(bad, holdsOnly(filepath.Join(dist, ToolArchive(tool, v, t)), ToolBinary(tool, t))...)
		}
	}
	bad = append(bad, checkManifest(root, filepath.Join(dist, ManifestName(v)))...)
	bad = append(bad, checkSums(dist, SumsFile(v), want)...)
	return bad, nil
}

// checkManifest: the committed manifest says protocol 6.0 (the framework's), and dist holds
// the same bytes under the release name.
func checkManifest(root, placed string) []string {
	committed, err := os.ReadFile(filepath.Join(root, ManifestFile))
	if err != nil {
		return []string{err.Error()}
	}
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	dec := json.NewDecoder(bytes.NewReader(committed))
	dec.DisallowUnknownFields()
	var bad []string
	if err := dec.Decode(&m); err != nil {
		bad = append(bad, fmt.Sprintf("%s: %v", ManifestFile, err))
	} else if m.Version != 1 || !slices.Equal(m.Metadata.ProtocolVersions, []string{"6.0"}) {
		bad = append(bad, fmt.Sprintf("%s says version %d, protocols %v; the registry needs version 1 and the provider serves protocol 6.0",
			ManifestFile, m.Version, m.Metadata.ProtocolVersions))
	}
	got, err := os.ReadFile(placed)
	if err != nil {
		return append(bad, fmt.Sprintf("%s is missing from dist", filepath.Base(placed)))
	}
	if !bytes.Equal(got, committed) {
		bad = append(bad, fmt.Sprintf("%s differs from %s", filepath.Base(placed), ManifestFile))
	}
	return bad
}

// checkSums: the sums file lists exactly want, each with the SHA-256 of the file in dist.
func checkSums(dist, name string, want []string) []string {
	f, err := os.Open(filepath.Join(dist, name))
	if err != nil {
		return []string{name + " is missing from dist"}
	}
	defer f.Close()
	var bad []string
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, file, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			bad = append(bad, fmt.Sprintf("%s: line %q is not \"<sha256>  <file>\"", name, sc.Text()))
			continue
		}
		listed[file] = true
		if got, err := fsx.SHA256(filepath.Join(dist, file)); err != nil {
			bad = append(bad, fmt.Sprintf("%s lists %s, which dist does not hold", name, file))
		} else if got != sum {
			bad = append(bad, fmt.Sprintf("%s gives %s for %s; the file's digest is %s", name, sum, file, got))
		}
	}
	for _, w := range want {
		if !listed[w] {
			bad = append(bad, fmt.Sprintf("%s does not list %s", name, w))
		}
	}
	if len(listed) != len(want) {
		bad = append(bad, fmt.Sprintf("%s lists %d files, want %d: %v", name, len(listed), len(want), slices.Sorted(maps.Keys(listed))))
	}
	return bad
}

// holdsOnly: the archive at p (zip, or tar.gz) holds exactly one file, named binary,
// executable (the mode is not checked for Windows binaries).
func holdsOnly(p, binary string) []string {
	names, modes, err := entries(p)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", filepath.Base(p), err)}
	}
	if len(names) != 1 || names[0] != binary {
		return []string{fmt.Sprintf("%s holds %v, want only %s", filepath.Base(p), names, binary)}
	}
	if !strings.HasSuffix(binary, ".exe") && modes[0]&0o111 == 0 {
		return []string{fmt.Sprintf("%s: %s is not executable (mode %v)", filepath.Base(p), binary, modes[0])}
	}
	return nil
}

func entries(p string) ([]string, []os.FileMode, error) {
	var names []string
	var modes []os.FileMode
	if strings.HasSuffix(p, ".zip") {
		z, err := zip.OpenReader(p)
		if err != nil {
			return nil, nil, err
		}
		defer z.Close()
		for _, f := range z.File {
			names, modes = append(names, f.Name), append(modes, f.Mode())
		}
		return names, modes, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, modes, nil
		}
		if err != nil {
			return nil, nil, err
		}
		names, modes = append(names, h.Name), append(modes, h.FileInfo().Mode())
	}
}
