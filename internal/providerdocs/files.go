package providerdocs

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// managed reports whether a committed file is one a render owns: docs/index.md and the
// pages of docs/resources. Everything else under docs/ is written by hand or by other tools.
func managed(rel string) bool {
	return rel == "docs/index.md" || (strings.HasPrefix(rel, "docs/resources/") && strings.HasSuffix(rel, ".md"))
}

// committed lists the managed files under root, as slash paths.
func committed(root string) ([]string, error) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "resources", "*.md"))
	if err != nil {
		return nil, err
	}
	out := []string{}
	if _, err := os.Stat(filepath.Join(root, "docs", "index.md")); err == nil {
		out = append(out, "docs/index.md")
	}
	for _, p := range pages {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return nil, err
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out, nil
}

// Write puts a render's pages into root and removes the managed pages it no longer holds
// (a resource type that left the catalog or was renamed). It refuses a render holding a
// file outside docs/index.md and docs/resources, so nothing it does not own is touched.
func Write(root string, pages map[string][]byte) error {
	for _, rel := range slices.Sorted(maps.Keys(pages)) {
		if !managed(rel) {
			return fmt.Errorf("tfplugindocs rendered %s, which is neither docs/index.md nor a page of docs/resources; nothing was written", rel)
		}
	}
	old, err := committed(root)
	if err != nil {
		return err
	}
	for _, rel := range old {
		if _, ok := pages[rel]; !ok {
			if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				return err
			}
			fmt.Println("providerdocs: removed", rel)
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(pages)) {
		dst := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, pages[rel], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("providerdocs: wrote %d pages\n", len(pages))
	return nil
}

// Stale lists every way the committed pages under root differ from a render: a page that
// differs or is missing, and a managed page the render no longer holds.
func Stale(root string, pages map[string][]byte) ([]string, error) {
	var out []string
	for _, rel := range slices.Sorted(maps.Keys(pages)) {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		switch {
		case err != nil:
			out = append(out, rel+" is missing")
		case string(got) != string(pages[rel]):
			out = append(out, rel+" differs from what tfplugindocs renders now")
		}
	}
	old, err := committed(root)
	if err != nil {
		return nil, err
	}
	for _, rel := range old {
		if _, ok := pages[rel]; !ok {
			out = append(out, rel+" is no longer rendered (its resource type left the catalog or was renamed)")
		}
	}
	return out, nil
}
