package guides

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

func TestWorkdirCopiesWhatGitWouldCommitAndUnignoredFindsWhatAGuideLeft(t *testing.T) {
	repo := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("examples/app/main.tf", "# tracked\n")
	write("examples/app/.gitignore", "*.tfstate\n")
	write("examples/app/new.tf", "# not committed yet, not ignored\n")
	write("examples/app/terraform.tfstate", "state a reader left in the checkout\n")
	for _, d := range append(Linked, "shared-ref") {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "examples/app/main.tf", "examples/app/.gitignore"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	root, copied, err := Workdir(repo, t.TempDir(), filepath.Join(repo, "shared-ref"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"examples/app/.gitignore", "examples/app/main.tf", "examples/app/new.tf"}
	sort.Strings(copied)
	if !reflect.DeepEqual(copied, want) {
		t.Errorf("copied %v, want %v (the state a reader left is not copied)", copied, want)
	}
	if _, err := os.Stat(filepath.Join(root, "..", "shared", "reference")); err != nil {
		t.Errorf("../shared/reference: %v", err)
	}
	for _, l := range Linked {
		if fi, err := os.Lstat(filepath.Join(root, l)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s is not linked: %v", l, err)
		}
	}
	// a guide run writes state (ignored) and a configuration file (not ignored)
	for _, f := range []string{"examples/app/terraform.tfstate", "examples/app/.terraform/providers/p", "examples/app/dev.tofurc"} {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	left, err := Unignored(repo, root, copied)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"examples/app/.terraform/providers/p", "examples/app/dev.tofurc"}; !reflect.DeepEqual(left, want) {
		t.Errorf("unignored %v, want %v", left, want)
	}
}
