package catalogtest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/internal/seal"
)

// SecondDefinitions writes the built-in catalog to dir plus two more definition
// versions of the first identity Form that provides an Interface and that a
// reference names by exact FormRef (the worker): the first keeps everything but
// its version, so it provides what the original provides yet no reference lists
// it; the second also withholds its providedInterfaces, so no reference requiring
// one of them admits it (docs/protocol.md#relations). It returns the loaded catalog
// and the two new versions.
func SecondDefinitions(dir string) (*catalog.Catalog, [2]string, error) {
	var vers [2]string
	src := catalog.EmbeddedFS()
	if err := os.CopyFS(dir, src); err != nil {
		return nil, vers, fmt.Errorf("copy the built-in catalog to %s: %w", dir, err)
	}
	base, err := catalog.Embedded()
	if err != nil {
		return nil, vers, err
	}
	f := listedProvider(base)
	if f == nil {
		return nil, vers, fmt.Errorf("the built-in catalog holds no identity Form providing an Interface that a reference lists by FormRef")
	}
	from, err := packageDir(src, f.Ref)
	if err != nil {
		return nil, vers, err
	}
	parts := strings.Split(f.Ref.DefinitionVersion, ".")
	minor, err := strconv.Atoi(parts[1])
	if len(parts) != 3 || err != nil {
		return nil, vers, fmt.Errorf("%s: definitionVersion %q is not major.minor.patch", f.Ref, f.Ref.DefinitionVersion)
	}
	for i := range vers {
		vers[i] = fmt.Sprintf("%s.%d.0", parts[0], minor+80+i)
		to := filepath.Join(dir, filepath.FromSlash(path.Dir(from)), vers[i])
		old := `"definitionVersion": "` + f.Ref.DefinitionVersion + `"`
		if err := cloneVersion(src, from, to, old, `"definitionVersion": "`+vers[i]+`"`, i == 1); err != nil {
			return nil, vers, err
		}
	}
	if err := listVersions(dir, path.Dir(path.Dir(from)), f.Ref.Kind, f.Ref.DefinitionVersion, vers[:]); err != nil {
		return nil, vers, err
	}
	if _, err := seal.Seal(dir); err != nil {
		return nil, vers, fmt.Errorf("seal the second-definitions catalog in %s: %w", dir, err)
	}
	cat, err := catalog.Load(os.DirFS(dir))
	if err != nil {
		return nil, vers, fmt.Errorf("the second-definitions catalog in %s does not load: %w", dir, err)
	}
	return cat, vers, nil
}

// listedProvider is the first identity Form providing an Interface whose exact
// FormRef some reference lists.
func listedProvider(c *catalog.Catalog) *catalog.Form {
	for _, f := range c.Forms() {
		if f.Role != "identity" || len(f.Provided) == 0 || len(f.Fixtures) == 0 {
			continue
		}
		for _, s := range c.Forms() {
			for _, rel := range s.Relations {
				if slices.Contains(rel.TargetFormRefs, f.Ref) {
					return f
				}
			}
		}
	}
	return nil
}

// cloneVersion copies the package at from (in fsys) to to, replacing old by new in
// its definition.json and, when withhold is set, dropping its providedInterfaces.
func cloneVersion(fsys fs.FS, from, to, old, new string, withhold bool) error {
	return fs.WalkDir(fsys, from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if path.Base(p) == "definition.json" {
			if !strings.Contains(string(b), old) {
				return fmt.Errorf("%s does not hold %s", p, old)
			}
			b = []byte(strings.Replace(string(b), old, new, 1))
			if withhold {
				if b, err = withoutMembers(b, "providedInterfaces"); err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
			}
		}
		out := filepath.Join(to, filepath.FromSlash(strings.TrimPrefix(p, from+"/")))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

// listVersions adds the new versions of kind to the family listing of the group
// directory (beside the entry of version from), so the loader finds them listed;
// seal.Seal then writes their digests.
func listVersions(dir, group, kind, from string, vers []string) error {
	file := filepath.Join(dir, filepath.FromSlash(group), "candidate-set.json")
	b, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil // a group without a listing lists nothing
	}
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	forms, _ := doc["forms"].([]any)
	for _, e := range forms {
		ref, _ := e.(map[string]any)["formRef"].(map[string]any)
		if ref["kind"] != kind || ref["definitionVersion"] != from {
			continue
		}
		for _, v := range vers {
			var c map[string]any
			raw, _ := json.Marshal(e)
			_ = json.Unmarshal(raw, &c)
			c["formRef"].(map[string]any)["definitionVersion"] = v
			forms = append(forms, c)
		}
		doc["forms"] = forms
		out, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(file, append(out, '\n'), 0o644)
	}
	return fmt.Errorf("%s lists no %s %s to add versions beside", file, kind, from)
}
