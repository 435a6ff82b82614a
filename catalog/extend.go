package catalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/takokit/takokit/catalog/model"
)

// Extend returns base with the Forms of extra added: a catalog a program completes
// at run time with Forms it builds itself (catalog/synthetic). extra speaks base's
// lane, carries only Interfaces and Bindings base carries at the same digests, and
// adds no Form of a group, kind and definition version base already holds; anything
// else is refused, naming it. base's Interfaces, Bindings and transitions are kept.
func Extend(base, extra *Catalog) (*Catalog, error) {
	var problems []string
	if extra.Lane() != base.Lane() {
		problems = append(problems, fmt.Sprintf("the added Forms speak %s, the catalog %s", extra.Lane().APIVersion, base.Lane().APIVersion))
	}
	for _, i := range extra.Interfaces() {
		if b, ok := base.Interface(i.Ref.Name, i.Ref.Version); !ok || b.Ref != i.Ref {
			problems = append(problems, fmt.Sprintf("Interface %s is not the catalog's", i.Ref))
		}
	}
	for _, b := range extra.Bindings() {
		if c, ok := base.Binding(b.Ref.Name, b.Ref.Version); !ok || c.Ref != b.Ref {
			problems = append(problems, fmt.Sprintf("Binding %s is not the catalog's", b.Ref))
		}
	}
	forms := base.Forms()
	for _, f := range extra.Forms() {
		if k, ok := base.Kind(f.Ref.APIVersion, f.Ref.Kind); ok {
			for _, v := range k.Versions {
				if v.Ref.DefinitionVersion == f.Ref.DefinitionVersion {
					problems = append(problems, fmt.Sprintf("%s %s %s is already in the catalog", f.Ref.APIVersion, f.Ref.Kind, f.Ref.DefinitionVersion))
				}
			}
		}
		forms = append(forms, f)
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("cannot extend the catalog: %s", strings.Join(problems, "; "))
	}
	sort.SliceStable(forms, func(i, j int) bool { return formLess(forms[i], forms[j]) })
	return model.NewCatalog(base.LaneChoice(), forms, base.Interfaces(), base.Bindings(), base.Transitions()), nil
}
