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
	unread []string // directories, relative to dir, that could not be listed
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
		name := e.Name()
		switch {
		case (name == "forms" || name == "interfaces" || name == "bindings") && !e.IsDir():
			ps.add(name, "", "%s must be a directory; the catalog root holds a file of that name: remove or rename it", name)
		case name == "forms":
			scanForms(fsys, l, ps)
		case name == "interfaces":
			l.interfaces = scanContracts(fsys, "interfaces", l, ps)
		case name == "bindings":
			l.bindings = scanContracts(fsys, "bindings", l, ps)
		case (name == transitionsFile || isLaneMarker(name)) && !e.Type().IsRegular():
			notRegular(name, ps)
		case name == transitionsFile:
			l.transitions = transitionsFile
		case isLaneMarker(name):
			l.laneMarkers = append(l.laneMarkers, name)
		}
	}
	return l
}

// notRegular reports a file the loader reads (transitions.json, a lane marker,
// candidate-set.json) that is a directory, a symbolic link or another special
// file: it is not read, so what it holds is not guessed at.
func notRegular(p string, ps *problems) {
	ps.add(p, "", "%s must be a regular file, not a directory, symbolic link or other special file; replace it with the file itself", path.Base(p))
}

func scanForms(fsys fs.FS, l *layout, ps *problems) {
	families, ok := readDir(fsys, "forms", ps)
	if !ok {
		ps.unreadForms = true
	}
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
		slugs, ok := readDir(fsys, p, ps)
		if !ok {
			ps.unreadForms = true // which kinds it holds is unknown: what names any adds no line
		}
		for _, s := range slugs {
			sp := path.Join(p, s.Name())
			if s.Name() == candidateSetFile {
				l.candidateSets = addCandidateSet(l.candidateSets, sp, s, ps)
				continue
			}
			if !s.IsDir() {
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
	entries, ok := readDir(fsys, sp, ps)
	if !ok {
		ps.markKind(slug)
		return
	}
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
			sub, ok := readDir(fsys, vp, ps)
			if !ok {
				ps.markKind(slug)
				continue
			}
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
		rel := strings.TrimPrefix(strings.TrimPrefix(fp, p.dir), "/")
		if err != nil {
			ps.add(fp, "", "cannot read: %v", err)
			p.unread = append(p.unread, rel)
			return nil
		}
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

// underUnread reports whether the package path lies in a directory of the
// package that could not be listed (its own problem: the file may be there).
func (p pkgDir) underUnread(pkgPath string) bool {
	for _, d := range p.unread {
		if strings.HasPrefix(pkgPath, d+"/") {
			return true
		}
	}
	return false
}

// scanContracts reads interfaces/<apiDir>/<name>/[<version>/]definition.json.
func scanContracts(fsys fs.FS, top string, l *layout, ps *problems) []contractDir {
	var out []contractDir
	apiDirs, ok := readDir(fsys, top, ps)
	if !ok {
		ps.unreadContracts = true
	}
	for _, a := range apiDirs {
		ap := path.Join(top, a.Name())
		if !a.IsDir() {
			ps.add(ap, "", "only version directories (such as v1alpha1) belong directly under %s/; move or remove this file", top)
			continue
		}
		names, ok := readDir(fsys, ap, ps)
		if !ok {
			ps.unreadContracts = true // which contracts it holds is unknown: what names any adds no line
		}
		for _, n := range names {
			np := path.Join(ap, n.Name())
			if n.Name() == candidateSetFile {
				l.candidateSets = addCandidateSet(l.candidateSets, np, n, ps)
				continue
			}
			if !n.IsDir() {
				ps.add(np, "", "only contract directories and an optional candidate-set.json belong here; move or remove this file")
				continue
			}
			entries, ok := readDir(fsys, np, ps)
			if !ok {
				ps.markContract(n.Name())
				continue
			}
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
					if sub, ok = readDir(fsys, vp, ps); !ok {
						ps.markContract(n.Name())
						continue
					}
				}
				if !wire.ValidSemver(e.Name()) || !hasFile(sub, definitionFile) || len(sub) != 1 { // a file has no sub
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

// addCandidateSet adds the candidate-set.json at p to sets, or reports it when
// it is not a regular file.
func addCandidateSet(sets []string, p string, e fs.DirEntry, ps *problems) []string {
	if !e.Type().IsRegular() {
		notRegular(p, ps)
		return sets
	}
	return append(sets, p)
}

func hasFile(entries []fs.DirEntry, name string) bool {
	for _, e := range entries {
		if e.Name() == name && e.Type().IsRegular() {
			return true
		}
	}
	return false
}

// readDir lists a directory, recording a problem when it cannot be read (ok
// false); the caller marks what the directory held as broken, so what names
// it adds no line.
func readDir(fsys fs.FS, dir string, ps *problems) (entries []fs.DirEntry, ok bool) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		ps.add(dir, "", "cannot read the directory: %v", err)
		return nil, false
	}
	return entries, true
}
