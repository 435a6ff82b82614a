package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// Binding Definitions (docs/catalog-rules.md#documents).

func loadBinding(fsys fs.FS, cd contractDir, ifaces []*Interface, ps *problems) *Binding {
	var d bindingDoc
	raw, digest, ok := readDoc(fsys, cd.file, &d, ps)
	if !ok {
		return nil
	}
	f := cd.file
	before := len(ps.list)
	if d.APIVersion != wire.BindingAPIVersion {
		ps.add(f, "/apiVersion", "apiVersion must be %q", wire.BindingAPIVersion)
	} else if cd.apiDir != path.Base(d.APIVersion) {
		ps.add(f, "/apiVersion", "document apiVersion %q belongs under bindings/%s/, not bindings/%s/", d.APIVersion, path.Base(d.APIVersion), cd.apiDir)
	}
	if d.Kind != "BindingDefinition" {
		ps.add(f, "/kind", "kind must be \"BindingDefinition\"")
	}
	checkContractName(f, d.Name, cd, bindingNameRe, ps)
	checkContractVersion(f, d.Version, cd, ps)
	checkProse(f, d.Title, d.Description, ps)
	if !slices.Contains(roles, d.SourceRole) {
		ps.add(f, "/sourceRole", "sourceRole must be one of %s", strings.Join(roles, ", "))
	}
	target := d.TargetInterface.iface()
	iface := resolveInterface(f, "/targetInterface", target, ifaces, ps)
	if n := len(d.AllowedTargetForms); n < 1 || n > 32 {
		ps.add(f, "/allowedTargetForms", "allowedTargetForms lists 1 to 32 (apiVersion, kind) pairs")
	}
	allowed := make([]KindName, 0, len(d.AllowedTargetForms))
	for i, k := range d.AllowedTargetForms {
		kn := KindName{APIVersion: k.APIVersion, Kind: k.Kind}
		if slices.Contains(allowed, kn) {
			ps.add(f, fmt.Sprintf("/allowedTargetForms/%d", i), "allowedTargetForms lists %s %s twice", k.APIVersion, k.Kind)
		}
		allowed = append(allowed, kn)
	}
	g := d.BindingNameGrammar
	if n := len([]rune(g)); n < 1 || n > 512 {
		ps.add(f, "/bindingNameGrammar", "bindingNameGrammar must be 1 to 512 characters")
	} else if _, err := regexp.Compile(g); err != nil {
		ps.add(f, "/bindingNameGrammar", "bindingNameGrammar does not compile with Go regexp (RE2): %v", err)
	} else if !strings.HasPrefix(g, "^") || !strings.HasSuffix(g, "$") {
		ps.add(f, "/bindingNameGrammar", "bindingNameGrammar must be anchored: start with ^ and end with $")
	}
	checkProjection(f, d.RuntimeProjection, iface, ps)
	if d.Lifecycle.TargetDeletion != "refuse_while_bound" {
		ps.add(f, "/lifecycle/targetDeletion", "targetDeletion must be \"refuse_while_bound\"")
	}
	if len(ps.list) > before {
		ps.markContract(d.Name)
		return nil
	}
	return &Binding{
		Ref:   wire.BindingRef{APIVersion: d.APIVersion, Name: d.Name, Version: d.Version, SchemaDigest: digest},
		Title: deref(d.Title), Description: deref(d.Description), SourceRole: d.SourceRole,
		TargetInterface: target, AllowedTargetForms: allowed, NameGrammar: g,
		Operations: slices.Clone(d.RuntimeProjection.Operations), JSON: raw,
	}
}

func checkProjection(f string, rp projectionDoc, iface *Interface, ps *problems) {
	checkOps := func(ptr string, ops []string) {
		if len(ops) < 1 || len(ops) > 64 {
			ps.add(f, ptr, "list 1 to 64 operation names")
		}
		seen := map[string]bool{}
		for i, o := range ops {
			p := fmt.Sprintf("%s/%d", ptr, i)
			if seen[o] {
				ps.add(f, p, "operation %q is listed twice", o)
			}
			seen[o] = true
			if iface != nil && !slices.Contains(iface.Operations, o) {
				ps.add(f, p, "operation %q is not an operation of the target Interface %s", o, iface.Ref.Name)
			}
		}
	}
	checkOps("/runtimeProjection/operations", rp.Operations)
	if rp.AccessModes != nil && (len(rp.AccessModes) < 1 || len(rp.AccessModes) > 8) {
		ps.add(f, "/runtimeProjection/accessModes", "accessModes lists 1 to 8 modes")
	}
	for i, m := range rp.AccessModes {
		p := fmt.Sprintf("/runtimeProjection/accessModes/%d", i)
		if !accessModeRe.MatchString(m.Name) {
			ps.add(f, p+"/name", "access mode name must match ^[a-z][a-z0-9_]{0,63}$")
		}
		checkOps(p+"/operations", m.Operations)
	}
}

// resolveBinding finds the Binding ref names, by every member.
func resolveBinding(f, ptr string, ref wire.BindingRef, bindings []*Binding, ps *problems) *Binding {
	if ref.APIVersion != wire.BindingAPIVersion {
		ps.add(f, ptrJoin(ptr, "apiVersion"), "a BindingRef apiVersion must be %q", wire.BindingAPIVersion)
		return nil
	}
	return resolveContract(f, ptr, "Binding", "bindings/", ref.Name, ref.Version, ref.SchemaDigest, bindings,
		func(b *Binding) (string, string, string) { return b.Ref.Name, b.Ref.Version, b.Ref.SchemaDigest }, ps)
}

// resolveContract finds the contract (Interface or Binding) an exact ref names by name and
// version, and reports a digest that differs from the loaded document's recomputed one.
func resolveContract[T any](f, ptr, what, dir, name, version, digest string, all []T,
	id func(T) (string, string, string), ps *problems) T {
	var none T
	for _, c := range all {
		n, v, d := id(c)
		if n != name || v != version {
			continue
		}
		if d != digest {
			ps.add(f, ptrJoin(ptr, "schemaDigest"), "names %s %s@%s at %s, but the loaded document's recomputed digest is %s; reseal the catalog", what, name, version, digest, d)
			return none
		}
		return c
	}
	if ps.contractBroken(name) {
		return none // its own problems are reported
	}
	ps.add(f, ptr, "names %s %s@%s, which the catalog does not hold; add it under %s or fix the reference", what, name, version, dir)
	return none
}
