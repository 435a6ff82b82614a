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
	os.MkdirAll(filepath.Join(parent, "c"), 0o755) // its forms is a file
	os.WriteFile(filepath.Join(parent, "c", "forms"), []byte("{}"), 0o644)
	broken := filepath.Join(dir, "broken")
	os.MkdirAll(filepath.Join(broken, "forms", "x", "y"), 0o755)
	os.WriteFile(filepath.Join(broken, "forms", "x", "y", "definition.json"), []byte(`{"kind": 1}`), 0o644)
	plain := filepath.Join(dir, "plain") // a file and a directory, neither a family root
	os.MkdirAll(filepath.Join(plain, "docs"), 0o755)
	os.WriteFile(filepath.Join(plain, "forms.json"), []byte("{}"), 0o644)
	formsFile := filepath.Join(dir, "forms-file") // forms is a file
	os.MkdirAll(formsFile, 0o755)
	os.WriteFile(filepath.Join(formsFile, "forms"), []byte("{}"), 0o644)

	const noRoot = "not a Form family root: it has no forms/ directory (the published layout is forms/, interfaces/, bindings/, transitions.json)"
	for _, tc := range []struct {
		dir, want string
	}{
		{filepath.Join(dir, "missing"), "no such directory; give the directory that holds forms/"},
		{file, "is a file, not a directory; give the directory that holds forms/"},
		{filepath.Join(file, "x"), "cannot be read: stat " + filepath.Join(file, "x") + ": not a directory"},
		{plain, noRoot},
		{formsFile, noRoot},
		{filepath.Join(empty, "forms"), noRoot + "; did you mean its parent " + empty + "?"},
		{parent, noRoot + "; these directories under it are family roots: " + filepath.Join(parent, "a") + ", " + filepath.Join(parent, "b")},
		{empty, "its forms/ directory holds no Form package (forms/<group>/<kind-slug>/definition.json); an empty family has nothing to serve or build"},
	} {
		_, err := LoadRoot(tc.dir)
		var re *RootError
		if !errors.As(err, &re) || re.Dir != tc.dir || err.Error() != tc.dir+": "+tc.want || re.Reason != tc.want {
			t.Errorf("LoadRoot(%s) = %v;\nwant a *RootError: %s: %s", tc.dir, err, tc.dir, tc.want)
		}
	}
	// a root that does not load: every problem, after the directory
	_, err = LoadRoot(broken)
	var re *RootError
	if !errors.As(err, &re) || !strings.HasPrefix(re.Reason, "does not load:\ncatalog: forms/x") {
		t.Errorf("LoadRoot(%s) = %v; want the load's problems", broken, err)
	}
}
