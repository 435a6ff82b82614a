package testrun

import (
	"path"
	"slices"
	"strings"
)

// BinaryGroups splits one module's packages (import paths) so that each group can keep
// its test binaries in one folder (`go test -o DIR/`): go test names a package's test
// binary after the last element of its import path and refuses two packages of one
// name in one folder (hostsim and hostsim/cmd/hostsim). Packages under a cmd/ folder
// come after the others, so the first group holds every library package and the
// commands whose name is free; each package goes to the first group not yet holding
// its name. Within a group the order given is kept (docs/decisions.md#test-binaries).
func BinaryGroups(importPaths []string) [][]string {
	ordered := slices.Clone(importPaths)
	slices.SortStableFunc(ordered, func(a, b string) int { return rank(a) - rank(b) })
	var groups [][]string
	var names []map[string]bool
	for _, p := range ordered {
		name := path.Base(p)
		i := 0
		for i < len(groups) && names[i][name] {
			i++
		}
		if i == len(groups) {
			groups = append(groups, nil)
			names = append(names, map[string]bool{})
		}
		groups[i] = append(groups[i], p)
		names[i][name] = true
	}
	return groups
}

// rank puts commands (a cmd element in the import path) after the other packages.
func rank(importPath string) int {
	if slices.Contains(strings.Split(importPath, "/"), "cmd") {
		return 1
	}
	return 0
}
