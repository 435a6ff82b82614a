package catalogtest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/internal/seal"
)

// editBuiltIn writes the built-in catalog to dir, calls edit on every definition of
// kinds (eachDefinition), reseals the result (the kinds' schema digests, every exact
// ref that names them and the package indexes follow) and loads it; doing says what
// the edit is, for the errors.
func editBuiltIn(dir, doing string, kinds []string, edit func(pkg string, raw []byte) error) (*catalog.Catalog, error) {
	if err := os.CopyFS(dir, catalog.EmbeddedFS()); err != nil {
		return nil, fmt.Errorf("copy the built-in catalog to %s: %w", dir, err)
	}
	if err := eachDefinition(dir, doing, kinds, edit); err != nil {
		return nil, err
	}
	if _, err := seal.Seal(dir); err != nil {
		return nil, fmt.Errorf("reseal %s after %s: %w", dir, doing, err)
	}
	cat, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		return nil, fmt.Errorf("the catalog after %s (%s) does not load: %w", doing, dir, err)
	}
	return cat, nil
}

// eachDefinition calls edit with the package folder and the definition.json bytes of
// every definition in dir whose kind is one of kinds, and fails naming what it was
// doing when the catalog defines no such kind.
func eachDefinition(dir, doing string, kinds []string, edit func(pkg string, raw []byte) error) error {
	root := os.DirFS(dir)
	seen := map[string]bool{}
	err := fs.WalkDir(root, "forms", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "definition.json" {
			return err
		}
		raw, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		var def struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &def); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if !slices.Contains(kinds, def.Kind) {
			return nil
		}
		seen[def.Kind] = true
		if err := edit(filepath.Join(dir, filepath.FromSlash(path.Dir(p))), raw); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, kind := range kinds {
		if !seen[kind] {
			return fmt.Errorf("the built-in catalog defines no kind %q (while %s)", kind, doing)
		}
	}
	return nil
}
