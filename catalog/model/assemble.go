package model

import "github.com/takokit/takokit/catalog/wire"

// NewCatalog assembles a catalog speaking lane from its parts as the loader orders them: forms by
// apiVersion, kind, then definition version (semantic-version precedence); interfaces
// and bindings by name then version; transitions by marker. Package catalog's loader
// calls it once it has checked the parts; a model generated at build time
// (catalog/embedded) calls it with the same parts written out as Go.
func NewCatalog(lane LaneChoice, forms []*Form, interfaces []*Interface, bindings []*Binding, transitions []*Transition) *Catalog {
	c := &Catalog{lane: lane, forms: forms, byRef: make(map[wire.FormRef]*Form, len(forms)), kinds: GroupKinds(forms),
		interfaces: interfaces, bindings: bindings, transitions: transitions}
	for _, f := range forms {
		c.byRef[f.Ref] = f
		if f.native == nil {
			f.native = &nativeSchemas{}
		}
	}
	return c
}

// GroupKinds gathers forms, sorted as NewCatalog wants them, into kinds; versions stay
// oldest to newest.
func GroupKinds(forms []*Form) []*Kind {
	var kinds []*Kind
	for _, f := range forms {
		if n := len(kinds); n > 0 && kinds[n-1].APIVersion == f.Ref.APIVersion && kinds[n-1].Kind == f.Ref.Kind {
			kinds[n-1].Versions = append(kinds[n-1].Versions, f)
			continue
		}
		kinds = append(kinds, &Kind{APIVersion: f.Ref.APIVersion, Kind: f.Ref.Kind, Slug: f.Slug, TypeName: f.TypeName, Versions: []*Form{f}})
	}
	return kinds
}
