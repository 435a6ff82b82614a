package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LoadRoot accepts the embedded family's directory and refuses, naming the
// directory and the reason, every directory that is not a loadable, non-empty
// family root.
func TestLoadRoot(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good") // the project's own catalog, as a directory on disk
	if err := os.CopyFS(good, EmbeddedFS()); err != nil {
		t.Fatal(err)
	}
	c, err := LoadRoot(good)
	if err != nil || len(c.Forms()) == 0 {
		t.Fatalf("LoadRoot(%s): %v", good, err)
	}

	file := filepath.Join(dir, "file.json")
	os.WriteFile(file, []byte("{}"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(filepath.Join(empty, "forms"), 0o755)
	parent := filepath.Join(dir, "parent") // holds two family roots, is none itself
	os.MkdirAll(filepath.Join(parent, "a", "forms"), 0o755)
	os.MkdirAll(filepath.Join(parent, "b", "forms"), 0o755)
	broken := filepath.Join(dir, "broken")
	os.MkdirAll(filepath.Join(broken, "forms", "x", "y"), 0o755)
	os.WriteFile(filepath.Join(broken, "forms", "x", "y", "definition.json"), []byte(`{"kind": 1}`), 0o644)

	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{filepath.Join(dir, "missing"), []string{"no such directory"}},
		{file, []string{"is a file, not a directory"}},
		{dir, []string{"not a Form family root: it has no forms/ directory"}},
		{filepath.Join(empty, "forms"), []string{"did you mean its parent " + empty + "?"}},
		{parent, []string{"family roots: " + filepath.Join(parent, "a") + ", " + filepath.Join(parent, "b")}},
		{empty, []string{"holds no Form package", "an empty family has nothing to serve or build"}},
		{broken, []string{"does not load:\n", "forms/x"}},
	} {
		_, err := LoadRoot(tc.dir)
		var re *RootError
		if !errors.As(err, &re) || re.Dir != tc.dir || !strings.HasPrefix(err.Error(), tc.dir+": ") {
			t.Errorf("LoadRoot(%s) = %v; want a *RootError naming the directory", tc.dir, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(re.Reason, w) {
				t.Errorf("LoadRoot(%s): %q does not say %q", tc.dir, re.Reason, w)
			}
		}
	}
}
