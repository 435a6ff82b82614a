package release

import (
	"archive/zip"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/internal/testinputs"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// hostTarget is the platform the narrowed snapshot builds: the one whose binary can run here.
var hostTarget = Target{runtime.GOOS, runtime.GOARCH}

// TestReleaseSnapshot runs the real goreleaser over the real configuration, cut to this
// machine's platform (Narrow), and holds dist to the registry's names: the provider zip
// with its v-prefixed binary alone, the tool archives, the SHA256SUMS over them and the
// manifest, protocol 6.0. The binary it unpacks reports the version the names carry, and
// OpenTofu installs the zip from a filesystem mirror and runs it. The
// full six-platform matrix is `go tool mage release`'s; TestReleaseMatrix pins it.
func TestReleaseSnapshot(t *testing.T) {
	testinputs.DeclarePart("SOURCES") // goreleaser builds the tree but its tests: docs/decisions.md#test-cache
	root := repoRoot(t)
	goreleaser := filepath.Join(root, "bin", "goreleaser")
	if _, err := os.Stat(goreleaser); err != nil {
		t.Fatalf("%s is missing: run `go tool mage releaseTools` (or `go tool mage test`) first", goreleaser)
	}
	check := exec.Command(goreleaser, "check")
	check.Dir = root
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser check %s: %v\n%s", ConfigFile, err, out)
	}
	dir := t.TempDir()
	dist, cfg := filepath.Join(dir, "dist"), filepath.Join(dir, "goreleaser.yaml")
	if err := Narrow(filepath.Join(root, ConfigFile), cfg, dist, hostTarget); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if err := Snapshot(goreleaser, root, cfg, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if _, err := PlaceManifest(root, dist); err != nil {
		t.Fatal(err)
	}
	matrix, err := Matrix(cfg)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := Check(root, dist, matrix)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	md, err := ReadMetadata(dist)
	if err != nil {
		t.Fatal(err)
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	if md.Commit != strings.TrimSpace(string(head)) || !strings.Contains(md.Version, md.Commit[:7]) {
		t.Errorf("the snapshot is of commit %q, version %q; want HEAD %s in both", md.Commit, md.Version, strings.TrimSpace(string(head)))
	}
	zipPath := filepath.Join(dist, ProviderZip(md.Version, hostTarget))
	bin := unzipOne(t, zipPath, dir)
	out, err := exec.Command(bin, "-version").Output()
	if want := ProjectName + " " + md.Version; err != nil || strings.TrimSpace(string(out)) != want {
		t.Errorf("%s -version printed %q (%v), want %q", filepath.Base(bin), out, err, want)
	}
	installFromMirror(t, filepath.Join(root, "bin", "tofu"), zipPath, md.Version)
}

// installFromMirror has OpenTofu install the provider zip the way it installs a registry's:
// from a packed filesystem mirror, which names and reads zips as a registry serves them, then
// asks the installed provider for its schema. Nothing reaches the network.
func installFromMirror(t *testing.T, tofu, zipPath, version string) {
	t.Helper()
	if _, err := os.Stat(tofu); err != nil {
		t.Fatalf("%s is missing: run `go tool mage tofu` (or `go tool mage test`) first", tofu)
	}
	dir := t.TempDir()
	mirror := filepath.Join(dir, "mirror", "registry.opentofu.org", "takokit", "takoform")
	work := filepath.Join(dir, "work")
	for _, d := range []string{mirror, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(mirror, filepath.Base(zipPath)): string(raw),
		filepath.Join(dir, "tofurc"): fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n"+
			"    include = [\"registry.opentofu.org/takokit/takoform\"]\n  }\n}\n", filepath.Join(dir, "mirror")),
		filepath.Join(work, "main.tf"): fmt.Sprintf("terraform {\n  required_providers {\n    takoform = {\n"+
			"      source  = \"takokit/takoform\"\n      version = %q\n    }\n  }\n}\n", version),
	}
	for p, b := range files {
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "TF_CLI_CONFIG_FILE=" + filepath.Join(dir, "tofurc"),
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1"}
	for _, args := range [][]string{{"init", "-no-color", "-input=false"}, {"providers", "schema", "-json"}} {
		cmd := exec.Command(tofu, args...)
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tofu %s with the release zip in a filesystem mirror: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "providers" && !strings.Contains(string(out), `"registry.opentofu.org/takokit/takoform":{"provider"`) {
			t.Fatalf("the provider OpenTofu installed from the zip serves no schema:\n%.400s", out)
		}
	}
}

// TestReleaseMatrix: every build ships linux, darwin and windows on amd64 and arm64.
func TestReleaseMatrix(t *testing.T) {
	m, err := Matrix(filepath.Join(repoRoot(t), ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	var want []Target
	for _, goos := range []string{"darwin", "linux", "windows"} {
		for _, arch := range []string{"amd64", "arm64"} {
			want = append(want, Target{goos, arch})
		}
	}
	for _, id := range Builds {
		if !slices.Equal(m[id], want) {
			t.Errorf("build %s ships %v, want %v", id, m[id], want)
		}
	}
	if len(m) != len(Builds) {
		t.Errorf("%s has builds %v, want exactly %v", ConfigFile, m, Builds)
	}
}

// TestNarrowCutsOnlyTheMatrix: the narrowed configuration differs from the real one in
// the platforms and dist alone.
func TestNarrowCutsOnlyTheMatrix(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "g.yaml")
	if err := Narrow(filepath.Join(root, ConfigFile), cfg, "/x/dist", Target{"plan9", "mips"}); err != nil {
		t.Fatal(err)
	}
	m, err := Matrix(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range Builds {
		if !slices.Equal(m[id], []Target{{"plan9", "mips"}}) {
			t.Errorf("narrowed build %s ships %v", id, m[id])
		}
	}
	orig, _ := os.ReadFile(filepath.Join(root, ConfigFile))
	narrowed, _ := os.ReadFile(cfg)
	strip := func(b []byte) []string {
		var keep []string
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if l == "" || strings.HasPrefix(l, "goos:") || strings.HasPrefix(l, "goarch:") || strings.HasPrefix(l, "dist:") {
				continue
			}
			keep = append(keep, strings.ReplaceAll(strings.ReplaceAll(l, "'", ""), `"`, ""))
		}
		return keep
	}
	if a, b := strip(orig), strip(narrowed); !slices.Equal(a, b) {
		t.Errorf("narrowing changed more than the matrix:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	if !strings.Contains(string(narrowed), "dist: /x/dist") {
		t.Errorf("narrowed configuration has no dist /x/dist:\n%s", narrowed)
	}
}

func unzipOne(t *testing.T, p, dir string) string {
	t.Helper()
	z, err := zip.OpenReader(p)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	if len(z.File) != 1 {
		t.Fatalf("%s holds %d files", p, len(z.File))
	}
	r, err := z.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dst := filepath.Join(dir, z.File[0].Name)
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	return dst
}
