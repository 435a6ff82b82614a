// Package catalogtest writes test variants of the built-in catalog to disk, for
// tests and self-tests that must run a host (hostsim --catalog DIR) and a
// client on a catalog the project does not ship.
package catalogtest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/internal/seal"
	"github.com/takokit/takokit/catalog/wire"
)

// SecondGroup is the group TwoGroups installs its cloned kind under.
const SecondGroup = "lab.forms.takokit.dev/v1alpha1"

// TwoGroups writes the built-in catalog to dir plus one package: the first
// standalone identity Form (no relations, outputs or transitions, a fixture)
// cloned into SecondGroup, so one kind name is installed in two groups
// (docs/protocol.md#identity: the same name in each is two resources). It
// returns the loaded catalog and the cloned Form's kind.
func TwoGroups(dir string) (*catalog.Catalog, string, error) {
	src := catalog.EmbeddedFS()
	if err := os.CopyFS(dir, src); err != nil {
		return nil, "", fmt.Errorf("copy the built-in catalog to %s: %w", dir, err)
	}
	base, err := catalog.Embedded()
	if err != nil {
		return nil, "", err
	}
	f := standalone(base)
	if f == nil {
		return nil, "", fmt.Errorf("the built-in catalog holds no standalone Form to clone into a second group")
	}
	from, err := packageDir(src, f.Ref)
	if err != nil {
		return nil, "", err
	}
	to := filepath.Join(dir, "forms", "lab-v1alpha1", path.Base(path.Dir(from)), path.Base(from))
	if err := clone(src, from, to, f.Ref.APIVersion); err != nil {
		return nil, "", err
	}
	if _, err := seal.Seal(dir); err != nil {
		return nil, "", fmt.Errorf("seal the two-group catalog in %s: %w", dir, err)
	}
	cat, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		return nil, "", fmt.Errorf("the two-group catalog in %s does not load: %w", dir, err)
	}
	return cat, f.Ref.Kind, nil
}

// standalone is the first Form a runner can create with nothing around it: an
// identity-role Form without relations, outputs or transitions (no artifact).
func standalone(c *catalog.Catalog) *catalog.Form {
	moved := map[string]bool{}
	for _, t := range c.Transitions() {
		moved[t.From.Kind], moved[t.To.Kind] = true, true
	}
	for _, f := range c.Forms() {
		if len(f.Relations) == 0 && !f.HasOutputs() && len(f.Fixtures) > 0 && !moved[f.Ref.Kind] && f.Role == "identity" {
			return f
		}
	}
	return nil
}

// packageDir finds the package directory whose index names ref.
func packageDir(fsys fs.FS, ref wire.FormRef) (string, error) {
	var found string
	err := fs.WalkDir(fsys, "forms", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "package-index.json" || found != "" {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		var idx struct {
			FormRef wire.FormRef `json:"formRef"`
		}
		if json.Unmarshal(b, &idx) == nil && idx.FormRef == ref {
			found = path.Dir(p)
		}
		return nil
	})
	if err == nil && found == "" {
		err = fmt.Errorf("no package of the built-in catalog names %s", ref)
	}
	return found, err
}

// clone copies the package at from (in fsys) to the directory to with every
// mention of group replaced by SecondGroup; seal.Seal then writes its index.
func clone(fsys fs.FS, from, to, group string) error {
	return fs.WalkDir(fsys, from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		out := filepath.Join(to, filepath.FromSlash(strings.TrimPrefix(p, from+"/")))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, []byte(strings.ReplaceAll(string(b), group, SecondGroup)), 0o644)
	})
}
