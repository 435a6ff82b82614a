package testrun

import (
	"path/filepath"
	"sort"
	"strings"
)

// Package is one package of the workspace, as `go list -f '{{.Dir}} {{.ImportPath}} {{.Module.Dir}}'`
// prints it.
type Package struct {
	Dir, ImportPath, Module string
}

// ParsePackages reads the lines of that go list: directory, import path, module directory.
func ParsePackages(out string) []Package {
	var pkgs []Package
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 3 {
			pkgs = append(pkgs, Package{Dir: f[0], ImportPath: f[1], Module: f[2]})
		}
	}
	return pkgs
}

// ChangedPackages maps changed files (absolute paths, deleted ones included) to the
// packages that hold them, by module directory: a file belongs to the package of the
// nearest directory above it that is one — its test data and embedded files included
// (catalog/data/... is the catalog package's). Files in no package (docs, the
// magefiles, go.work) map to nothing. Each module's import paths come sorted.
func ChangedPackages(files []string, pkgs []Package) map[string][]string {
	seen := map[string]bool{}
	out := map[string][]string{}
	for _, f := range files {
		var best *Package
		for i := range pkgs {
			p := &pkgs[i]
			if inside(f, p.Dir) && (best == nil || len(p.Dir) > len(best.Dir)) {
				best = p
			}
		}
		if best == nil || seen[best.ImportPath] {
			continue
		}
		seen[best.ImportPath] = true
		out[best.Module] = append(out[best.Module], best.ImportPath)
	}
	for _, ps := range out {
		sort.Strings(ps)
	}
	return out
}

// inside reports whether file lies in dir or below it.
func inside(file, dir string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
