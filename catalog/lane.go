package catalog

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// The lane a catalog speaks (docs/catalog-rules.md#lanes). A catalog root chooses one
// lane, by its signals in this order: a lane.json of the project's own
// ({"lane": "v1beta1"}), the operation table a published lane folder carries beside its
// family (operations-<version>.json, whose "format" is the lane's host-api identity),
// and the Form families the lane descriptor knows. A root without any signal speaks the
// default lane. Every document that belongs to another lane than the chosen one is
// refused, naming the file: a catalog serves exactly one lane.

const laneFile = "lane.json"

var operationsRe = regexp.MustCompile(`^operations-[a-z0-9]+\.json$`)

// laneSignal is one document that names a lane.
type laneSignal struct {
	file string
	lane *wire.Lane
}

// laneFileDoc is lane.json.
type laneFileDoc struct {
	Lane string `json:"lane"`
}

// readLaneMarkers reads the root's explicit lane signals: lane.json and published
// operation tables.
func readLaneMarkers(fsys fs.FS, l *layout, ps *problems) []laneSignal {
	var out []laneSignal
	for _, file := range l.laneMarkers {
		raw, err := fs.ReadFile(fsys, file)
		if err != nil {
			ps.add(file, "", "cannot read: %v", err)
			continue
		}
		if err := wire.CheckIJSON(raw); err != nil {
			ps.addJSON(file, "", err)
			continue
		}
		if file == laneFile {
			var d laneFileDoc
			if err := wire.DecodeStrict(raw, &d); err != nil {
				ps.addJSON(file, "", err)
				continue
			}
			ln, err := wire.LaneNamed(d.Lane)
			if err != nil {
				ps.add(file, "/lane", "%v", err)
				continue
			}
			out = append(out, laneSignal{file, ln})
			continue
		}
		var d struct {
			Format string `json:"format"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			ps.add(file, "", "cannot read the operation table: %v", err)
			continue
		}
		ln, ok := wire.LaneOfHostAPI(d.Format)
		if !ok {
			ps.add(file, "/format", "%q names no lane takokit speaks; the known lanes are %s", d.Format, wire.KnownLanes())
			continue
		}
		if path.Base(file) != "operations-"+ln.Name+".json" {
			ps.add(file, "/format", "the operation table of %s is named operations-%s.json; rename the file or correct its format", ln.HostAPI, ln.Name)
			continue
		}
		out = append(out, laneSignal{file, ln})
	}
	return out
}

// familySignals are the Form definitions (and Binding targets and candidate sets)
// whose family the lane descriptor knows.
func familySignals(builds []*formBuild, bindings []*Binding, bindingFiles []string, candidates []candidateFamily) []laneSignal {
	var out []laneSignal
	for _, b := range builds {
		if ln, ok := wire.LaneOfFamily(b.form.Ref.APIVersion); ok {
			out = append(out, laneSignal{b.file, ln})
		}
	}
	for i, bd := range bindings {
		for _, t := range bd.AllowedTargetForms {
			if ln, ok := wire.LaneOfFamily(t.APIVersion); ok {
				out = append(out, laneSignal{bindingFiles[i], ln})
			}
		}
	}
	for _, c := range candidates {
		if ln, ok := wire.LaneOfFamily(c.family); ok {
			out = append(out, laneSignal{c.file, ln})
		}
	}
	return out
}

// chooseLane decides the catalog's lane from its signals and refuses every signal of
// another lane, naming its file.
func chooseLane(markers, families []laneSignal, ps *problems) model.LaneChoice {
	choice := model.LaneChoice{Lane: wire.DefaultLane, Source: "the default lane (no lane.json, no operation table, no known family)"}
	switch {
	case len(markers) > 0:
		choice = model.LaneChoice{Lane: markers[0].lane, Source: markers[0].file, Explicit: true}
	case len(families) > 0:
		// the lane most of the family documents belong to; a tie goes to the lane listed first
		sort.SliceStable(families, func(i, j int) bool { return families[i].file < families[j].file })
		count := map[*wire.Lane]int{}
		for _, s := range families {
			count[s.lane]++
		}
		best := families[0].lane
		for _, ln := range wire.Lanes() {
			if count[ln] > count[best] {
				best = ln
			}
		}
		for _, s := range families {
			if s.lane == best {
				choice = model.LaneChoice{Lane: best, Source: "the family of " + s.file, Explicit: true}
				break
			}
		}
	}
	// a file that signals twice (a Binding with two targets of the other lane) is
	// reported once: identical problem lines are one
	for _, s := range append(append([]laneSignal{}, markers...), families...) {
		if s.lane == choice.Lane {
			continue
		}
		ps.add(s.file, "", "belongs to lane %s, but this catalog speaks %s (chosen by %s); a catalog serves one lane, so move it into a catalog of its own",
			s.lane.Describe(), choice.Lane.APIVersion, choice.Source)
	}
	return choice
}

// candidateFamily is the family a candidate-set.json names.
type candidateFamily struct {
	file, family string
}

// LaneOf reads only what chooses the lane of the catalog root at fsys (its lane.json,
// operation table and the apiVersion of its Form definitions), without loading it:
// what a program needs to say which lane a directory speaks before it loads it.
func LaneOf(fsys fs.FS) (model.LaneChoice, error) {
	ps := &problems{}
	l := scanLayout(fsys, ps)
	markers := readLaneMarkers(fsys, l, ps)
	var families []laneSignal
	for _, p := range l.packages {
		file := path.Join(p.dir, definitionFile)
		raw, err := fs.ReadFile(fsys, file)
		if err != nil {
			continue
		}
		var d struct {
			APIVersion string `json:"apiVersion"`
		}
		_ = json.Unmarshal(raw, &d) // a definition that does not decode names no family
		if ln, ok := wire.LaneOfFamily(d.APIVersion); ok {
			families = append(families, laneSignal{file, ln})
		}
	}
	choice := chooseLane(markers, families, ps)
	return choice, ps.err()
}

// ForLane returns cat when it speaks lane, or an error naming both lanes when the
// catalog chose another one itself. A catalog without a lane signal takes lane: a
// program's --lane decides for it (docs/catalog-rules.md#lanes).
func ForLane(cat *Catalog, lane *wire.Lane) (*Catalog, error) {
	if cat.Lane() == lane {
		return cat, nil
	}
	if cat.LaneChoice().Explicit {
		return nil, fmt.Errorf("the catalog speaks %s, chosen by %s, not the requested lane %s; drop the lane option or use a catalog of that lane",
			cat.Lane().Describe(), cat.LaneChoice().Source, lane.Describe())
	}
	return cat.WithLane(model.LaneChoice{Lane: lane, Source: "the lane option", Explicit: true}), nil
}

func isLaneMarker(name string) bool {
	return name == laneFile || operationsRe.MatchString(name) // the pattern holds no /
}
