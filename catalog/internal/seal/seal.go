// Package seal recomputes every digest of a catalog root (docs/catalog-rules.md#digests): Interface,
// Binding and Form schema digests in dependency order, the digest strings of every
// exact ref that names them, the package indexes, the FormRefs of transitions.json,
// and the digests candidate-set.json listings carry. It rewrites only digest strings
// inside exact refs and listings, and the package indexes; every other byte of a
// definition stays as authored.
package seal

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Seal rewrites the catalog under dir so that every digest is correct and returns the
// paths (relative to dir, slash-separated, sorted) of the files it changed or created.
// Nothing is written unless every document could be sealed.
func Seal(dir string) (changed []string, err error) { return run(dir, true) }

// Check computes what Seal would change without writing anything.
func Check(dir string) (changed []string, err error) { return run(dir, false) }

type category int

const (
	catInterface category = iota
	catBinding
	catForm
)

// document is one digest-bound definition of the catalog.
type document struct {
	path string
	key  string
	cat  category
	raw  []byte
	refs []ref
	top  *node
}

// Files seals a catalog held in memory — paths relative to the root, slash-separated
// — in place, and returns the paths it changed or created, sorted: what Seal does to
// a directory, for a catalog a program builds at run time.
func Files(files map[string][]byte) ([]string, error) { return sealFiles(files) }

func run(dir string, write bool) ([]string, error) {
	files, err := readTree(os.DirFS(dir))
	if err != nil {
		return nil, err
	}
	changed, err := sealFiles(files)
	if err != nil {
		return nil, err
	}
	if write {
		for _, p := range changed {
			if err := writeFile(filepath.Join(dir, filepath.FromSlash(p)), files[p]); err != nil {
				return nil, err
			}
		}
	}
	return changed, nil
}

func sealFiles(files map[string][]byte) ([]string, error) {
	orig := make(map[string][]byte, len(files))
	for p, b := range files {
		orig[p] = b
	}
	docs, probs := collect(files)
	if len(probs) == 0 {
		probs = sealDocuments(docs, files)
	}
	if len(probs) == 0 {
		probs = sealTransitions(files, docs)
	}
	if len(probs) == 0 {
		probs = sealCandidateSets(files, docs)
	}
	if len(probs) > 0 {
		sort.Strings(probs)
		return nil, errors.New(strings.Join(probs, "\n"))
	}
	var changed []string
	for p, b := range files {
		if o, ok := orig[p]; !ok || !bytes.Equal(o, b) {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	return changed, nil
}

// readTree reads every regular file under forms/, interfaces/ and bindings/ plus
// transitions.json. Symlinks are refused: the loader refuses them too.
func readTree(fsys fs.FS) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, top := range []string{"forms", "interfaces", "bindings"} {
		err := fs.WalkDir(fsys, top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == top {
					return fs.SkipDir
				}
				return err
			}
			if d.IsDir() {
				return nil
			}
			if !d.Type().IsRegular() {
				return fmt.Errorf("seal: %s: not a regular file (symlinks and devices are refused in a catalog); replace it with a plain file", p)
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			files[p] = b
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if b, err := fs.ReadFile(fsys, "transitions.json"); err == nil {
		files["transitions.json"] = b
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("seal: no forms/, interfaces/ or bindings/ under the catalog root; pass the catalog root directory (for example catalog/data)")
	}
	return files, nil
}

// collect parses every definition.json and names the document it defines.
func collect(files map[string][]byte) ([]*document, []string) {
	var docs []*document
	var probs []string
	seen := map[string]string{}
	for p, raw := range files {
		if path.Base(p) != "definition.json" {
			continue
		}
		d := &document{path: p, raw: raw}
		switch strings.SplitN(p, "/", 2)[0] {
		case "interfaces":
			d.cat = catInterface
		case "bindings":
			d.cat = catBinding
		default:
			d.cat = catForm
		}
		top, err := parse(raw)
		if err != nil {
			probs = append(probs, fmt.Sprintf("seal: %s: %v", p, err))
			continue
		}
		d.top = top
		d.key, err = identity(d)
		if err != nil {
			probs = append(probs, fmt.Sprintf("seal: %s: %v", p, err))
			continue
		}
		if other, dup := seen[d.key]; dup {
			probs = append(probs, fmt.Sprintf("seal: %s: defines %s, already defined by %s; give one of them another version", p, d.key, other))
			continue
		}
		seen[d.key] = p
		d.refs = findRefs(top)
		docs = append(docs, d)
	}
	return docs, probs
}

func identity(d *document) (string, error) {
	get := func(k string) (string, error) {
		v, ok := d.top.member(k)
		if !ok || v == "" {
			return "", fmt.Errorf("top-level %q is missing or not a string; the seal tool names documents by it", k)
		}
		return v, nil
	}
	if d.cat == catForm {
		api, err := get("apiVersion")
		if err != nil {
			return "", err
		}
		kind, err := get("kind")
		if err != nil {
			return "", err
		}
		ver, err := get("definitionVersion")
		if err != nil {
			return "", err
		}
		return formKey(api, kind, ver), nil
	}
	name, err := get("name")
	if err != nil {
		return "", err
	}
	ver, err := get("version")
	if err != nil {
		return "", err
	}
	if d.cat == catInterface {
		return interfaceKey(name, ver), nil
	}
	return bindingKey(name, ver), nil
}

func writeFile(dst string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".seal-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// digestOf is the schema digest of a definition: SHA-256 of its JCS bytes.
func digestOf(raw []byte) (string, error) { return wire.Digest(raw) }
