package catalog

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Published candidate-set.json listings (docs/catalog-rules.md#layout): tolerated, and when present
// the set they list must equal the set loaded and recomputed. Only the compared
// members are read; everything else in them is ignored.

func checkCandidateSets(fsys fs.FS, l *layout, builds []*formBuild, ifaces []*Interface, bindings []*Binding, ps *problems) {
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
		var listed, loaded []string
		switch {
		case strings.HasPrefix(file, "forms/"):
			dir := strings.TrimSuffix(file, "/"+candidateSetFile)
			for _, c := range d.Forms {
				if c.FormRef != nil {
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
				listed = append(listed, fmt.Sprintf("%s@%s (%s)", c.Name, c.Version, c.SchemaDigest))
			}
			for _, i := range ifaces {
				loaded = append(loaded, i.Ref.String())
			}
		default:
			for _, c := range d.Bindings {
				listed = append(listed, fmt.Sprintf("%s@%s (%s)", c.Name, c.Version, c.SchemaDigest))
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
