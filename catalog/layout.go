package catalog

import (
	"io/fs"
	"path"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// The on-disk layout of docs/catalog-rules.md#layout.

const (
	definitionFile   = "definition.json"
	indexFile        = "package-index.json"
	candidateSetFile = "candidate-set.json"
	transitionsFile  = "transitions.json"
)

var (
	familyRe = lazyRegexp(`^[a-z0-9][a-z0-9.-]{0,62}$`)
	slugRe   = lazyRegexp(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)
)

// pkgDir is one Form package directory.
type pkgDir struct {
	dir    string   // relative to the catalog root
	family string   // family directory name
	slug   string   // kind-slug directory name
	verDir string   // version directory name; "" in the single-version layout
	files  []string // every regular file, relative to dir, in byte order
}

// contractDir is one Interface or Binding document.
type contractDir struct {
	file   string // relative to the catalog root
	apiDir string // "v1alpha1"
	name   string // <name> directory
	verDir string // "" unless <name>/<version>/definition.json
}

type layout struct {
	packages      []pkgDir
	interfaces    []contractDir
	bindings      []contractDir
	candidateSets []string
	laneMarkers   []string // lane.json and operations-<version>.json at the root (docs/catalog-rules.md#lanes)
	transitions   string   // "" when absent
}

func scanLayout(fsys fs.FS, ps *problems) *layout {
	l := &layout{}
	root, err := fs.ReadDir(fsys, ".")
	if err != nil {
		ps.add(".", "", "cannot read the catalog root: %v; point the loader at a directory holding forms/, interfaces/ and bindings/", err)
		return l
	}
	for _, e := range root {
		switch {
		case e.Name() == "forms" && e.IsDir():
			scanForms(fsys, l, ps)
		case e.Name() == "interfaces" && e.IsDir():
			l.interfaces = scanContracts(fsys, "interfaces", l, ps)
		case e.Name() == "bindings" && e.IsDir():
			l.bindings = scanContracts(fsys, "bindings", l, ps)
		case e.Name() == transitionsFile && e.Type().IsRegular():
			l.transitions = transitionsFile
		case isLaneMarker(e.Name()) && e.Type().IsRegular():
			l.laneMarkers = append(l.laneMarkers, e.Name())
		}
	}
	return l
}

func scanForms(fsys fs.FS, l *layout, ps *problems) {
	families, _ := fs.ReadDir(fsys, "forms")
	for _, fam := range families {
		p := path.Join("forms", fam.Name())
		if !fam.IsDir() {
			ps.add(p, "", "only family directories belong directly under forms/; move or remove this file")
			continue
		}
		if !familyRe.MatchString(fam.Name()) {
			ps.add(p, "", "family directory name must match ^[a-z0-9][a-z0-9.-]{0,62}$; rename it (for example edge-v1alpha1)")
			continue
		}
		slugs := readDir(fsys, p, ps)
		for _, s := range slugs {
			sp := path.Join(p, s.Name())
			if !s.IsDir() {
				if s.Name() == candidateSetFile && s.Type().IsRegular() {
					l.candidateSets = append(l.candidateSets, sp)
					continue
				}
				ps.add(sp, "", "a family directory holds only kind-slug directories and an optional candidate-set.json; move or remove this file")
				continue
			}
			if !slugRe.MatchString(s.Name()) {
				ps.add(sp, "", "kind-slug directory must be the kind in lower case with hyphens between words (^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$)")
				continue
			}
			scanSlug(fsys, l, ps, fam.Name(), s.Name(), sp)
		}
	}
}

func scanSlug(fsys fs.FS, l *layout, ps *problems, family, slug, sp string) {
	entries := readDir(fsys, sp, ps)
	if hasFile(entries, definitionFile) {
		for _, e := range entries {
			if e.IsDir() && wire.ValidSemver(e.Name()) {
				ps.add(sp, "", "directory mixes the single-version layout (definition.json) with version directory %q; use one layout: move definition.json and its files into a version directory", e.Name())
				ps.markKind(slug)
				return
			}
		}
		l.packages = append(l.packages, scanPackage(fsys, ps, pkgDir{dir: sp, family: family, slug: slug}))
		return
	}
	for _, e := range entries {
		vp := path.Join(sp, e.Name())
		switch {
		case !e.IsDir():
			ps.add(vp, "", "a kind-slug directory holds either definition.json and its package files or version directories; move this file into a package directory")
		case !wire.ValidSemver(e.Name()):
			ps.add(vp, "", "version directory name %q is not a semantic version; name it after the definitionVersion (for example 0.1.0)", e.Name())
		default:
			sub := readDir(fsys, vp, ps)
			if !hasFile(sub, definitionFile) {
				ps.add(vp, "", "version directory has no definition.json; add the Form Definition or remove the directory")
				continue
			}
			l.packages = append(l.packages, scanPackage(fsys, ps, pkgDir{dir: vp, family: family, slug: slug, verDir: e.Name()}))
		}
	}
	if len(entries) == 0 {
		ps.add(sp, "", "kind-slug directory is empty; add a package or remove it")
	}
}

func scanPackage(fsys fs.FS, ps *problems, p pkgDir) pkgDir {
	_ = fs.WalkDir(fsys, p.dir, func(fp string, d fs.DirEntry, err error) error {
		if err != nil {
			ps.add(fp, "", "cannot read: %v", err)
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(fp, p.dir), "/")
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			ps.add(fp, "", "symbolic links are not allowed in a package; replace it with the file itself")
		case d.Type().IsRegular():
			p.files = append(p.files, rel)
		case d.IsDir(): // the package directory itself among them
		default:
			ps.add(fp, "", "only regular files belong in a package")
		}
		return nil
	})
	return p
}

// scanContracts reads interfaces/<apiDir>/<name>/[<version>/]definition.json.
func scanContracts(fsys fs.FS, top string, l *layout, ps *problems) []contractDir {
	var out []contractDir
	apiDirs := readDir(fsys, top, ps)
	for _, a := range apiDirs {
		ap := path.Join(top, a.Name())
		if !a.IsDir() {
			ps.add(ap, "", "only version directories (such as v1alpha1) belong directly under %s/; move or remove this file", top)
			continue
		}
		names := readDir(fsys, ap, ps)
		for _, n := range names {
			np := path.Join(ap, n.Name())
			if !n.IsDir() {
				if n.Name() == candidateSetFile && n.Type().IsRegular() {
					l.candidateSets = append(l.candidateSets, np)
					continue
				}
				ps.add(np, "", "only contract directories and an optional candidate-set.json belong here; move or remove this file")
				continue
			}
			entries := readDir(fsys, np, ps)
			if hasFile(entries, definitionFile) {
				for _, e := range entries {
					if e.Name() == definitionFile {
						continue
					}
					if e.IsDir() && wire.ValidSemver(e.Name()) {
						ps.add(np, "", "directory mixes definition.json with version directory %q; use one layout", e.Name())
					} else {
						ps.add(path.Join(np, e.Name()), "", "a contract directory holds only definition.json; remove this entry")
					}
				}
				out = append(out, contractDir{file: path.Join(np, definitionFile), apiDir: a.Name(), name: n.Name()})
				continue
			}
			for _, e := range entries {
				vp := path.Join(np, e.Name())
				var sub []fs.DirEntry
				if e.IsDir() {
					sub = readDir(fsys, vp, ps)
				}
				if !e.IsDir() || !wire.ValidSemver(e.Name()) || !hasFile(sub, definitionFile) || len(sub) != 1 {
					ps.add(vp, "", "expected a version directory (such as 1.0.0) holding only definition.json")
					ps.markContract(n.Name()) // reported here: what names it adds no line
					continue
				}
				out = append(out, contractDir{file: path.Join(vp, definitionFile), apiDir: a.Name(), name: n.Name(), verDir: e.Name()})
			}
			if len(entries) == 0 {
				ps.add(np, "", "contract directory is empty; add definition.json or remove it")
			}
		}
	}
	return out
}

func hasFile(entries []fs.DirEntry, name string) bool {
	for _, e := range entries {
		if e.Name() == name && e.Type().IsRegular() {
			return true
		}
	}
	return false
}

// readDir lists a directory, recording a problem when it cannot be read.
func readDir(fsys fs.FS, dir string, ps *problems) []fs.DirEntry {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		ps.add(dir, "", "cannot read the directory: %v", err)
	}
	return entries
}
