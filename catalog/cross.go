package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Rules between documents (docs/catalog-rules.md#loader-rules, #naming).

// checkUniqueness: one Form per (apiVersion, kind, definitionVersion), one
// apiVersion per family directory and one family directory per apiVersion.
// Interfaces and Bindings need no such rule: a contract's path is its lane's
// directory, its name and (when versioned) its version, each of which the
// document must equal, so no two loaded contracts share a name and a version.
func checkUniqueness(builds []*formBuild, ps *problems) {
	seen := map[string]string{}
	for _, b := range builds {
		r := b.form.Ref
		key := r.APIVersion + " " + r.Kind + "@" + r.DefinitionVersion
		if prev, dup := seen[key]; dup {
			ps.add(b.file, "", "%s is also defined by %s; (apiVersion, kind, definitionVersion) is unique in a catalog", key, prev)
		}
		seen[key] = b.file
	}
	famGroup := map[string]string{}
	groupFam := map[string]string{}
	reported := map[string]bool{} // one line per offending family directory
	for _, b := range builds {
		g, fam := b.form.Ref.APIVersion, b.pkg.family
		if prev, ok := famGroup[fam]; ok && prev != g {
			ps.add(b.file, "/apiVersion", "family directory %q already holds Forms of %q; every Form under one family directory has the same apiVersion", fam, prev)
			continue
		}
		famGroup[fam] = g
		if prev, ok := groupFam[g]; ok && prev != fam {
			if !reported[fam] {
				reported[fam] = true
				ps.add(b.file, "/apiVersion", "apiVersion %q is already used by family directory %q; one family directory per Form group", g, prev)
			}
			continue
		}
		groupFam[g] = fam
	}
}

// checkTargets resolves every reference node's targets against the loaded Forms.
func checkTargets(builds []*formBuild, byRef map[wire.FormRef]*Form, ps *problems) {
	for _, b := range builds {
		for _, rel := range b.form.Relations {
			where := relationSchemaPtr(rel.Pointer)
			for i, r := range rel.TargetFormRefs {
				ptr := fmt.Sprintf("%s/%s/%d", where, annTargetFormRefs, i)
				if r.APIVersion != rel.TargetAPIVersion || r.Kind != rel.TargetKind {
					ps.add(b.file, ptr, "target FormRef names %s %s but the node's consts say %s %s", r.APIVersion, r.Kind, rel.TargetAPIVersion, rel.TargetKind)
					continue
				}
				if _, ok := byRef[r]; !ok && !ps.kindBroken(r.Kind) {
					ps.add(b.file, ptr, "target FormRef %s names no loaded Form; fix the version or digest (reseal the catalog)", r)
				}
			}
			if ri := rel.RequiredInterface; ri != nil && !ps.kindBroken(rel.TargetKind) && !ps.contractBroken(ri.Name) && !kindProvides(builds, rel.TargetAPIVersion, rel.TargetKind, *ri) {
				ps.add(b.file, where+"/"+annRequiredInterface, "no loaded definition version of %s %s provides %s; the reference could never resolve", rel.TargetAPIVersion, rel.TargetKind, ri)
			}
		}
	}
}

// relationSchemaPtr maps "/versions/*/workerVersion" to its schema pointer.
func relationSchemaPtr(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	out := "/desiredSchema/properties/" + parts[0]
	for i := 1; i+1 < len(parts); i += 2 {
		out += "/items/properties/" + parts[i+1]
	}
	return out
}

func kindProvides(builds []*formBuild, group, kind string, ref wire.InterfaceRef) bool {
	for _, b := range builds {
		if b.form.Ref.APIVersion == group && b.form.Ref.Kind == kind && b.form.Provides(ref) {
			return true
		}
	}
	return false
}

// checkBindingTargets: each allowedTargetForms entry names a loaded kind that provides
// the binding's targetInterface in at least one version.
func checkBindingTargets(bindings []*Binding, files []string, builds []*formBuild, ps *problems) {
	for i, bd := range bindings {
		for j, k := range bd.AllowedTargetForms {
			ptr := fmt.Sprintf("/allowedTargetForms/%d", j)
			if ps.kindBroken(k.Kind) {
				continue
			}
			if !slices.ContainsFunc(builds, func(b *formBuild) bool {
				return b.form.Ref.APIVersion == k.APIVersion && b.form.Ref.Kind == k.Kind
			}) {
				ps.add(files[i], ptr, "%s %s is not a loaded Form kind", k.APIVersion, k.Kind)
				continue
			}
			if !kindProvides(builds, k.APIVersion, k.Kind, bd.TargetInterface) {
				ps.add(files[i], ptr, "no loaded version of %s %s provides the targetInterface %s", k.APIVersion, k.Kind, bd.TargetInterface)
			}
		}
	}
}

// checkVersions applies the version rules and the cross-version attribute collision rule (docs/catalog-rules.md#naming)
// to every kind with more than one loaded definition version.
func checkVersions(kinds []*Kind, files map[*Form]string, ps *problems) {
	for _, k := range kinds {
		fieldKinds := map[string]*Field{}
		attrWire := map[string]string{}
		outTypes := map[string]string{}
		for _, f := range k.Versions {
			file := files[f]
			if f.Role != k.Versions[0].Role {
				ps.add(file, "/role", "role %q differs from %q of version %s; all versions of one kind share a role", f.Role, k.Versions[0].Role, k.Versions[0].Ref.DefinitionVersion)
			}
			for i := range f.Fields {
				fl := &f.Fields[i]
				ptr := ptrJoin("/desiredSchema/properties", fl.Wire)
				if prev, ok := fieldKinds[fl.Wire]; ok {
					if change := kindChange(prev, fl); change != "" {
						ps.add(file, ptr, "property %q %s in another version; a changed field type needs a new kind or a new resource type", fl.Wire, change)
					}
				}
				fieldKinds[fl.Wire] = fl
				if w, ok := attrWire[fl.Attr]; ok && w != fl.Wire {
					ps.add(file, ptr, "property %q and property %q of another version both become attribute %q; rename one", fl.Wire, w, fl.Attr)
				}
				attrWire[fl.Attr] = fl.Wire
			}
			for _, o := range f.Outputs {
				if prev, ok := outTypes[o.Wire]; ok && prev != o.Type {
					ps.add(file, ptrJoin("/outputSchema/properties", o.Wire, "type"), "output %q is %s here but %s in another version; an output keeps its type", o.Wire, o.Type, prev)
				}
				outTypes[o.Wire] = o.Type
			}
		}
	}
}

// kindChange says how field b's type differs from the same property's a in
// another version ("" when it does not): its kind, or the kind of a member both
// declare. A member one version adds is no change (an object or object list may
// grow); the kinds that hold members (object, object list, binding list) are
// the same kind on both sides here, and a binding list's two members are fixed.
func kindChange(a, b *Field) string {
	if a.Kind != b.Kind {
		return fmt.Sprintf("is %s here but %s", b.Kind, a.Kind)
	}
	for _, m := range a.Members {
		for _, n := range b.Members {
			if m.Wire == n.Wire && m.Kind != n.Kind {
				return fmt.Sprintf("has member %q of kind %s here but %s", n.Wire, n.Kind, m.Kind)
			}
		}
	}
	return ""
}
