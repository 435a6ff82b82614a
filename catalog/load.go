package catalog

import (
	"io/fs"
	"sort"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// Load reads, checks and derives a whole catalog root (docs/catalog-rules.md). It returns a
// complete catalog or a *LoadError listing every violation, one line each, sorted by
// file then pointer; it never drops a document and returns the rest.
func Load(fsys fs.FS) (*Catalog, error) {
	return load(fsys, &problems{})
}

// LoadPrechecked derives the same catalog as Load from a root that Load has already
// accepted, at a fraction of the cost: it skips the checks that exist only to reject
// (raw file digests, fixture validation, Interface operation schemas) and compiles each
// JSON Schema on first use. It is for a catalog fixed into a binary and checked when
// the binary was built, such as a family catalog embedded by `go tool mage
// provider:family` (whose binary runs Load over it with -check). The takoform provider
// binary itself links the embedded catalog's model generated at build time
// (catalog/embedded) and loads nothing at start.
func LoadPrechecked(fsys fs.FS) (*Catalog, error) {
	return load(fsys, &problems{prechecked: true})
}

func load(fsys fs.FS, ps *problems) (*Catalog, error) {
	l := scanLayout(fsys, ps)

	var ifaces []*Interface
	for _, cd := range l.interfaces {
		if i := loadInterface(fsys, cd, ps); i != nil {
			ifaces = append(ifaces, i)
		} else {
			ps.markContract(cd.name)
		}
	}
	var bindings []*Binding
	var bindingFiles []string
	for _, cd := range l.bindings {
		if b := loadBinding(fsys, cd, ifaces, ps); b != nil {
			bindings = append(bindings, b)
			bindingFiles = append(bindingFiles, cd.file)
		} else {
			ps.markContract(cd.name)
		}
	}
	var builds []*formBuild
	for _, p := range l.packages {
		if b := loadForm(fsys, p, ifaces, bindings, ps); b != nil {
			b.loadIndex(fsys, ps)
			builds = append(builds, b)
		} else {
			ps.markKind(p.slug)
		}
	}
	sets := readCandidateSets(fsys, l, ps)
	applyCandidateNames(sets, builds, ps)
	lane := chooseLane(readLaneMarkers(fsys, l, ps), familySignals(builds, bindings, bindingFiles, candidateFamilies(sets)), ps)
	checkUniqueness(builds, ps)

	byRef := map[wire.FormRef]*Form{}
	var forms []*Form
	files := map[*Form]string{}
	for _, b := range builds {
		forms = append(forms, b.form)
		byRef[b.form.Ref] = b.form
		files[b.form] = b.file
	}
	checkTargets(builds, byRef, ps)
	checkBindingTargets(bindings, bindingFiles, builds, ps)
	sort.SliceStable(forms, func(i, j int) bool { return formLess(forms[i], forms[j]) })
	checkVersions(model.GroupKinds(forms), files, ps)
	var transitions []*Transition
	if l.transitions != "" {
		transitions = loadTransitions(fsys, l.transitions, byRef, ps)
	}
	checkCandidateSets(sets, builds, ifaces, bindings, ps)
	if err := ps.err(); err != nil {
		return nil, err
	}
	sort.SliceStable(ifaces, func(i, j int) bool {
		return contractLess(ifaces[i].Ref.Name, ifaces[i].Ref.Version, ifaces[j].Ref.Name, ifaces[j].Ref.Version)
	})
	sort.SliceStable(bindings, func(i, j int) bool {
		return contractLess(bindings[i].Ref.Name, bindings[i].Ref.Version, bindings[j].Ref.Name, bindings[j].Ref.Version)
	})
	return model.NewCatalog(lane, forms, ifaces, bindings, transitions), nil
}

func formLess(a, b *Form) bool {
	if a.Ref.APIVersion != b.Ref.APIVersion {
		return a.Ref.APIVersion < b.Ref.APIVersion
	}
	if a.Ref.Kind != b.Ref.Kind {
		return a.Ref.Kind < b.Ref.Kind
	}
	return compareSemver(a.Ref.DefinitionVersion, b.Ref.DefinitionVersion) < 0
}

func contractLess(an, av, bn, bv string) bool {
	if an != bn {
		return an < bn
	}
	return compareSemver(av, bv) < 0
}
