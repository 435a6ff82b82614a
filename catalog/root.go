package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A Form family root is a directory in the published layout: forms/, and beside it
// interfaces/, bindings/ and transitions.json when the family has them
// (docs/catalog-rules.md#other-catalogs). LoadRoot is the one rule for "this
// directory is a family root, and it loads": `hostsim --catalog DIR` and `go tool
// mage provider:family DIR` both apply it, so the two refuse the same directories
// with the same words.

// RootError says why a directory is not a Form family root. It names the
// directory; Reason alone is the rest (for callers that name it themselves).
type RootError struct {
	Dir    string
	Reason string
}

func (e *RootError) Error() string { return e.Dir + ": " + e.Reason }

// CheckRoot reports whether dir is laid out as a Form family root: an existing
// directory holding a forms/ directory. It reads nothing else.
func CheckRoot(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &RootError{dir, "no such directory; give the directory that holds forms/"}
	case err != nil:
		return &RootError{dir, fmt.Sprintf("cannot be read: %v", err)}
	case !st.IsDir():
		return &RootError{dir, "is a file, not a directory; give the directory that holds forms/"}
	}
	if st, err := os.Stat(filepath.Join(dir, "forms")); err == nil && st.IsDir() {
		return nil
	}
	return &RootError{dir, "not a Form family root: it has no forms/ directory (the published layout is forms/, " +
		"interfaces/, bindings/, transitions.json)" + rootHint(dir)}
}

// rootHint points at the directory the user probably meant: the parent when dir
// is itself a forms/ directory, or the subdirectories that are family roots.
func rootHint(dir string) string {
	if filepath.Base(filepath.Clean(dir)) == "forms" {
		return fmt.Sprintf("; did you mean its parent %s?", filepath.Dir(filepath.Clean(dir)))
	}
	entries, _ := os.ReadDir(dir)
	var roots []string
	for _, e := range entries { // a file's forms/ fails to stat
		if st, err := os.Stat(filepath.Join(dir, e.Name(), "forms")); err == nil && st.IsDir() {
			roots = append(roots, filepath.Join(dir, e.Name()))
		}
	}
	if len(roots) == 0 { // in name order, as os.ReadDir lists them
		return ""
	}
	return "; these directories under it are family roots: " + strings.Join(roots, ", ")
}

// LoadRoot reads dir as a Form family root: CheckRoot, then the checking Load
// (every violation, one line each), and the family must hold at least one Form —
// an empty family would serve or build nothing, silently.
func LoadRoot(dir string) (*Catalog, error) {
	if err := CheckRoot(dir); err != nil {
		return nil, err
	}
	c, err := Load(os.DirFS(dir))
	if err != nil {
		return nil, &RootError{dir, "does not load:\n" + err.Error()}
	}
	if len(c.Forms()) == 0 {
		return nil, &RootError{dir, "its forms/ directory holds no Form package (forms/<group>/<kind-slug>/definition.json); " +
			"an empty family has nothing to serve or build"}
	}
	return c, nil
}
