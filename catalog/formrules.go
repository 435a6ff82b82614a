package catalog

import (
	"fmt"
	"slices"

	"github.com/takokit/takokit/catalog/wire"
)

// Per-definition rules that span fields, outputs and contracts (docs/catalog-rules.md#loader-rules,
// docs/catalog-rules.md#naming).

func (b *formBuild) checkBindingLists() {
	ps, file, f := b.ctx.ps, b.file, b.form
	named := map[string]string{} // binding name -> list property
	for _, bl := range b.ctx.bindings {
		if prev, dup := named[bl.name]; dup {
			ps.add(file, ptrJoin(bl.ptr, annBinding), "binding %q is already projected by property %q; one list per binding", bl.name, prev)
			continue
		}
		named[bl.name] = bl.wire
		idx := slices.IndexFunc(f.Accepted, func(r wire.BindingRef) bool { return r.Name == bl.name })
		if idx < 0 {
			ps.add(file, ptrJoin(bl.ptr, annBinding), "binding %q is not in acceptedBindings; add its exact BindingRef there", bl.name)
			continue
		}
		ref := f.Accepted[idx]
		fl, _ := f.Field(bl.wire) // a binding list is a top-level property, and loadDesired keeps every one
		rel := &b.ctx.relations[bl.relIdx]
		fl.Binding = &ref
		rel.Binding = &ref
		bd := b.accepted[idx]
		if bd == nil {
			continue // unresolved; already reported
		}
		if f.Role != bd.SourceRole {
			ps.add(file, ptrJoin(bl.ptr, annBinding), "binding %q has sourceRole %q but this Form's role is %q", bl.name, bd.SourceRole, f.Role)
		}
		refPtr := ptrJoin(bl.ptr, "items", "properties", fl.RefMember)
		if rel.RequiredInterface == nil || *rel.RequiredInterface != bd.TargetInterface {
			ps.add(file, refPtr, "the reference of binding list %q must carry %s equal to binding %q's targetInterface %s", bl.wire, annRequiredInterface, bl.name, bd.TargetInterface)
		}
		if !slices.Contains(bd.AllowedTargetForms, KindName{APIVersion: rel.TargetAPIVersion, Kind: rel.TargetKind}) {
			ps.add(file, refPtr, "binding %q does not allow target %s %s; use one of its allowedTargetForms", bl.name, rel.TargetAPIVersion, rel.TargetKind)
		}
		if str(bl.itemName["pattern"]) != bd.NameGrammar {
			ps.add(file, ptrJoin(bl.ptr, "items", "properties", "name", "pattern"), "binding name pattern must be exactly binding %q's bindingNameGrammar %q", bl.name, bd.NameGrammar)
		}
	}
	for i, r := range f.Accepted {
		if !slices.Contains(b.ctx.projected, r.Name) {
			ps.add(file, fmt.Sprintf("/acceptedBindings/%d", i), "accepted binding %q is projected by no binding-list property; add a property with %s: %q or drop the entry", r.Name, annBinding, r.Name)
		}
	}
	f.Relations = b.ctx.relations
}

// checkNames enforces the reserved list and attribute collisions within the Form.
func (b *formBuild) checkNames() {
	ps, file, f := b.ctx.ps, b.file, b.form
	reserved := ReservedAttributes()
	attrs := map[string]string{} // attr -> wire
	for _, fl := range f.Fields {
		ptr := ptrJoin("/desiredSchema/properties", fl.Wire)
		if g, ok := reserved[fl.Attr]; ok {
			ps.add(file, ptr, "desired property %q becomes attribute %q, which is reserved (%s); rename the property", fl.Wire, fl.Attr, g)
		}
		if prev, ok := attrs[fl.Attr]; ok {
			ps.add(file, ptr, "desired properties %q and %q both become attribute %q; rename one", prev, fl.Wire, fl.Attr)
		}
		attrs[fl.Attr] = fl.Wire
		members := map[string]string{}
		for _, m := range fl.Members {
			if prev, ok := members[m.Attr]; ok {
				ps.add(file, ptr, "members %q and %q of %q both become attribute %q; rename one", prev, m.Wire, fl.Wire, m.Attr)
			}
			members[m.Attr] = m.Wire
		}
	}
	for _, o := range f.Outputs {
		ptr := ptrJoin("/outputSchema/properties", o.Wire)
		if g, ok := reserved[o.Attr]; ok {
			ps.add(file, ptr, "output %q becomes attribute %q, which is reserved (%s); rename the output", o.Wire, o.Attr, g)
		}
		if _, ok := f.Field(o.Wire); ok {
			ps.add(file, ptr, "output %q has the name of a desired property; outputs are not desired state, so rename one", o.Wire)
		} else if w, ok := attrs[o.Attr]; ok {
			ps.add(file, ptr, "output %q and desired property %q both become attribute %q; rename one", o.Wire, w, o.Attr)
		}
	}
}
