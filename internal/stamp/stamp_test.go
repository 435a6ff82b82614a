package stamp

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// newModule makes a git work tree holding a module whose main package embeds a file,
// with a test file and a guide beside it, all committed; it returns the root.
func newModule(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/m\n\ngo 1.22\n")
	write(t, root, "main.go", "package main\n\nimport _ \"embed\"\n\n//go:embed data.txt\nvar data string\n\nfunc main() { println(data) }\n")
	write(t, root, "data.txt", "one\n")
	write(t, root, "main_test.go", "package main\n")
	write(t, root, "docs/guide.md", "# guide\n")
	write(t, root, "gen.md", "generated from\n")
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "config", "user.email", "t@example.com")
	gitRun(t, root, "config", "user.name", "t")
	commitAll(t, root, "first")
	return root
}

func write(t *testing.T, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitRun(t *testing.T, root string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func commitAll(t *testing.T, root, msg string) string {
	t.Helper()
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-q", "-m", msg)
	return gitRun(t, root, "rev-parse", "HEAD")
}

func version(t *testing.T, root string) string {
	t.Helper()
	in, err := Inputs(root, []string{"gen.md"}, ".")
	if err != nil {
		t.Fatal(err)
	}
	v, err := Version(root, in)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestInputsAreTheFilesABuildReads(t *testing.T) {
	root := newModule(t)
	write(t, root, "extra.go", "package main\n") // new, not yet committed: a build reads it
	got, err := Inputs(root, []string{"gen.md"}, ".")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"data.txt", "extra.go", "gen.md", "go.mod", "main.go"}
	if !slices.Equal(got, want) {
		t.Fatalf("inputs: got %q, want %q (no test file, no guide)", got, want)
	}
	if _, err := Inputs(root, []string{"missing.md"}, "."); err == nil || !strings.Contains(err.Error(), "missing.md") {
		t.Fatalf("a named extra input that does not exist: got %v, want an error naming it", err)
	}
	if _, err := Inputs(root, nil, "./nosuch"); err == nil || !strings.Contains(err.Error(), "go list") {
		t.Fatalf("a package that does not exist: got %v, want go list's error", err)
	}
}

// The version moves with the binaries' sources and with nothing else: a commit of a
// guide or a test, or an edit of one, leaves it where it was, so the binaries keep their
// bytes and the tests that run them their cached results.
func TestVersionMovesWithTheSourcesOnly(t *testing.T) {
	root := newModule(t)
	first := gitRun(t, root, "rev-parse", "HEAD")
	want := "0.0.0-dev+" + first[:12]
	if v := version(t, root); v != want {
		t.Fatalf("first commit: got %s, want %s", v, want)
	}

	write(t, root, "docs/guide.md", "# guide, edited\n")
	write(t, root, "main_test.go", "package main\n\n// edited\n")
	if v := version(t, root); v != want {
		t.Fatalf("a guide and a test edited, not committed: got %s, want %s (not dirty)", v, want)
	}
	commitAll(t, root, "docs and tests")
	if v := version(t, root); v != want {
		t.Fatalf("a guide and a test committed: got %s, want still %s", v, want)
	}

	for _, f := range []string{"data.txt", "main.go", "go.mod", "gen.md"} {
		old, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		write(t, root, f, string(old)+"\n")
		if v := version(t, root); v != want+".dirty" {
			t.Fatalf("%s edited: got %s, want %s.dirty", f, v, want)
		}
		write(t, root, f, string(old))
	}
	write(t, root, "data.txt", "two\n")
	second := commitAll(t, root, "the embedded file")
	if v := version(t, root); v != "0.0.0-dev+"+second[:12] {
		t.Fatalf("an embedded file committed: got %s, want the new commit %s", v, second[:12])
	}

	gitRun(t, root, "tag", "v1.2.0", second)
	write(t, root, "docs/guide.md", "# guide, again\n")
	commitAll(t, root, "docs after the tag")
	if v := version(t, root); v != "v1.2.0" {
		t.Fatalf("tagged sources, a guide committed after: got %s, want v1.2.0", v)
	}
	main, err := os.ReadFile(filepath.Join(root, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, "main.go", string(main)+"\n// edited\n")
	if v := version(t, root); v != "v1.2.0-dirty" {
		t.Fatalf("tagged sources edited: got %s, want v1.2.0-dirty", v)
	}
}
