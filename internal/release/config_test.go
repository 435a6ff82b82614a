package release

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeConfig writes a goreleaser configuration of text into a scratch directory.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "g.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMatrixRefusesPlatformsNamedAnotherWay: a build listing targets or ignore is
// refused naming it (this reader would count the wrong platforms), and one listing
// goos and goarch gives their product, sorted.
func TestMatrixRefusesPlatformsNamedAnotherWay(t *testing.T) {
	for _, extra := range []string{"targets: [linux_amd64]", "ignore: [{goos: linux, goarch: arm64}]"} {
		p := writeConfig(t, "builds:\n  - id: ok\n    goos: [linux]\n    goarch: [amd64]\n  - id: odd\n    goos: [linux]\n    goarch: [amd64, arm64]\n    "+extra+"\n")
		_, err := Matrix(p)
		if want := p + `: build "odd" lists targets or ignore; internal/release reads only goos x goarch`; err == nil || err.Error() != want {
			t.Errorf("Matrix of a build with %s: %v\nwant %s", extra, err, want)
		}
	}
	m, err := Matrix(writeConfig(t, "builds:\n  - id: b\n    goos: [windows, linux]\n    goarch: [arm64, amd64]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Target{{"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"}}; !slices.Equal(m["b"], want) {
		t.Errorf("Matrix = %v, want %v", m["b"], want)
	}
}

// TestNarrowRefusesWhatItCannotCut: Narrow writes nothing for a configuration whose
// top level is not a mapping, that has no builds, or a build without goos or goarch,
// and says which.
func TestNarrowRefusesWhatItCannotCut(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"a list at the top", "- builds: []\n", "the top level is not a mapping"},
		{"a scalar at the top", "just text\n", "the top level is not a mapping"},
		{"no builds", "project_name: x\n", "no builds"},
		{"builds a mapping", "builds:\n  id: x\n", "no builds"},
		{"builds empty", "builds: []\n", "no builds"},
		{"a build without goos", "builds:\n  - id: x\n    goarch: [amd64]\n", "a build has no goos"},
		{"a build without goarch", "builds:\n  - id: x\n    goos: [linux]\n", "a build has no goarch"},
		{"a build that is a list", "builds:\n  - [goos, linux, goarch, amd64]\n", "a build has no go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := writeConfig(t, tc.text)
			dst := filepath.Join(t.TempDir(), "out.yaml")
			err := Narrow(src, dst, "/d", Target{"linux", "amd64"})
			if err == nil || !strings.HasPrefix(err.Error(), src+": "+tc.want) {
				t.Errorf("Narrow = %v, want %s: %s", err, src, tc.want)
			}
			if _, err := os.Stat(dst); err == nil {
				t.Errorf("Narrow wrote %s for a configuration it refused", dst)
			}
		})
	}
}

// TestNarrowSetsAnExistingDist: a configuration naming its own dist gets the one
// Narrow is given in its place (not a second dist), and a build whose id reads like
// a key keeps it.
func TestNarrowSetsAnExistingDist(t *testing.T) {
	src := writeConfig(t, "dist: ./elsewhere\nbuilds:\n  - id: goos\n    goos: [linux, darwin]\n    goarch: [amd64]\n")
	dst := filepath.Join(t.TempDir(), "out.yaml")
	if err := Narrow(src, dst, "/x/dist", Target{"plan9", "mips"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dst)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); strings.Count(got, "dist:") != 1 || !strings.Contains(got, "dist: /x/dist") || strings.Contains(got, "elsewhere") {
		t.Errorf("narrowed configuration:\n%s\nwant one dist, /x/dist", got)
	}
	m, err := Matrix(dst)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Target{{"plan9", "mips"}}; !slices.Equal(m["goos"], want) || len(m) != 1 {
		t.Errorf("narrowed matrix = %v, want build goos on %v", m, want)
	}
}
