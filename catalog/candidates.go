package catalog

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Published candidate-set.json listings (docs/catalog-rules.md#layout): tolerated, and when present
// the set they list must equal the set loaded and recomputed. Only the compared
// members and the family's naming facts are read (family, formMaturity and each
// Form's resourceType, docs/catalog-rules.md#naming); everything else in them is ignored.

var resourceTypeRe = regexp.MustCompile(`^takoform_[a-z][a-z0-9]*(?:_[a-z0-9]+)*$`)

// candidateSet is one read listing.
type candidateSet struct {
	file string
	doc  candidateSetDoc
}

func readCandidateSets(fsys fs.FS, l *layout, ps *problems) []candidateSet {
	var out []candidateSet
	for _, file := range l.candidateSets {
		raw, err := fs.ReadFile(fsys, file)
		if err != nil {
			ps.add(file, "", "cannot read: %v", err)
			continue
		}
		if err := wire.CheckIJSON(raw); err != nil {
			ps.addJSON(file, "", err)
			continue
		}
		var d candidateSetDoc
		if err := json.Unmarshal(raw, &d); err != nil {
			ps.add(file, "", "cannot read the listing: %v", err)
			continue
		}
		out = append(out, candidateSet{file, d})
	}
	return out
}

// candidateFamilies are the families the Form listings name.
func candidateFamilies(sets []candidateSet) []candidateFamily {
	var out []candidateFamily
	for _, s := range sets {
		if strings.HasPrefix(s.file, "forms/") && s.doc.Family != "" {
			out = append(out, candidateFamily{s.file, s.doc.Family})
		}
	}
	return out
}

// applyCandidateNames gives each listed Form the family's maturity and, when the
// listing names one, its resource type.
func applyCandidateNames(sets []candidateSet, builds []*formBuild, ps *problems) {
	for _, s := range sets {
		if !strings.HasPrefix(s.file, "forms/") {
			continue
		}
		for i, c := range s.doc.Forms {
			if c.FormRef == nil {
				continue
			}
			for _, b := range builds {
				if b.form.Ref != *c.FormRef {
					continue
				}
				if s.doc.FormMaturity != nil {
					b.form.Maturity = *s.doc.FormMaturity
				}
				if c.ResourceType == nil {
					continue
				}
				if resourceTypeRe.MatchString(*c.ResourceType) {
					b.form.TypeName = *c.ResourceType
				} else {
					ps.add(s.file, fmt.Sprintf("/forms/%d/resourceType", i), "resourceType %q is not a provider type name (takoform_ and lower-case words joined by _)", *c.ResourceType)
				}
			}
		}
	}
}

func checkCandidateSets(sets []candidateSet, builds []*formBuild, ifaces []*Interface, bindings []*Binding, ps *problems) {
	for _, s := range sets {
		file, d := s.file, s.doc
		var listed, loaded []string
		switch {
		case strings.HasPrefix(file, "forms/"):
			dir := strings.TrimSuffix(file, "/"+candidateSetFile)
			for _, c := range d.Forms {
				// a kind whose package failed to load has its own problem line; the
				// listing naming it is not a second one
				if c.FormRef != nil && !ps.kindBroken(c.FormRef.Kind) {
					listed = append(listed, fmt.Sprintf("%s package %s", *c.FormRef, c.PackageDigest))
				}
			}
			for _, b := range builds {
				if strings.HasPrefix(b.pkg.dir, dir+"/") {
					loaded = append(loaded, fmt.Sprintf("%s package %s", b.form.Ref, b.form.PackageDigest))
				}
			}
		case strings.HasPrefix(file, "interfaces/"):
			for _, c := range d.Interfaces {
				if !ps.contractBroken(c.Name) {
					listed = append(listed, fmt.Sprintf("%s@%s (%s)", c.Name, c.Version, c.SchemaDigest))
				}
			}
			for _, i := range ifaces {
				loaded = append(loaded, i.Ref.String())
			}
		default:
			for _, c := range d.Bindings {
				if !ps.contractBroken(c.Name) {
					listed = append(listed, fmt.Sprintf("%s@%s (%s)", c.Name, c.Version, c.SchemaDigest))
				}
			}
			for _, b := range bindings {
				loaded = append(loaded, b.Ref.String())
			}
		}
		for _, x := range listed {
			if !slices.Contains(loaded, x) {
				ps.add(file, "", "lists %s, which was not loaded with that digest; the listing and the documents disagree", x)
			}
		}
		for _, x := range loaded {
			if !slices.Contains(listed, x) {
				ps.add(file, "", "does not list the loaded %s; update the listing or remove it", x)
			}
		}
	}
}
