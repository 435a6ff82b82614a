package catalog

import (
	"fmt"
	"io/fs"

	"github.com/takokit/takokit/catalog/wire"
)

// transitions.json (docs/catalog-rules.md#layout).

const transitionsFormat = "takokit.form-transitions@v1"

var markerRe = lazyRegexp(`^[a-z0-9](?:[a-z0-9.-]{0,126}[a-z0-9])?$`)

func loadTransitions(fsys fs.FS, file string, byRef map[wire.FormRef]*Form, ps *problems) []*Transition {
	var d transitionsDoc
	if _, _, ok := readDoc(fsys, file, &d, ps); !ok {
		return nil
	}
	if d.Format != transitionsFormat {
		ps.add(file, "/format", "format must be %q", transitionsFormat)
	}
	var out []*Transition
	markers := map[string]bool{}
	pairs := map[[2]wire.FormRef]string{}
	for i, t := range d.Transitions {
		ptr := fmt.Sprintf("/transitions/%d", i)
		from, to := t.From.ref(), t.To.ref()
		if !markerRe.MatchString(t.Marker) {
			ps.add(file, ptr+"/marker", "marker %q must match ^[a-z0-9](?:[a-z0-9.-]{0,126}[a-z0-9])?$", t.Marker)
		}
		if markers[t.Marker] {
			ps.add(file, ptr+"/marker", "marker %q is declared twice; markers are unique", t.Marker)
		}
		markers[t.Marker] = true
		if i > 0 && t.Marker <= d.Transitions[i-1].Marker {
			ps.add(file, ptr+"/marker", "transitions are listed in marker order; %q comes after %q", t.Marker, d.Transitions[i-1].Marker)
		}
		for _, end := range []struct {
			name string
			ref  wire.FormRef
		}{{"from", from}, {"to", to}} {
			if _, found := byRef[end.ref]; !found && !ps.kindBroken(end.ref.Kind) {
				ps.add(file, ptr+"/"+end.name, "%s names no loaded Form (%s); fix the version or digest (reseal the catalog)", end.name, end.ref)
			}
		}
		switch {
		case from.APIVersion != to.APIVersion || from.Kind != to.Kind:
			ps.add(file, ptr+"/to", "a transition stays within one kind; from is %s %s, to is %s %s", from.APIVersion, from.Kind, to.APIVersion, to.Kind)
		case from == to:
			ps.add(file, ptr+"/to", "from and to are the same definition")
		case wire.ValidSemver(from.DefinitionVersion) && wire.ValidSemver(to.DefinitionVersion) &&
			compareSemver(to.DefinitionVersion, from.DefinitionVersion) <= 0:
			ps.add(file, ptr+"/to/definitionVersion", "to.definitionVersion %s must be greater than from.definitionVersion %s", to.DefinitionVersion, from.DefinitionVersion)
		}
		if prev, dup := pairs[[2]wire.FormRef{from, to}]; dup {
			ps.add(file, ptr, "the pair (from, to) is already declared by marker %q", prev)
		}
		pairs[[2]wire.FormRef{from, to}] = t.Marker
		// a transition with a problem is listed too: a catalog with one never loads
		out = append(out, &Transition{Marker: t.Marker, From: from, To: to})
	}
	return out
}
