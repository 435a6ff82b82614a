package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Target is what the caller's (tenant, space, apiVersion, kind, name) resolved to.
type Target struct {
	Found      bool
	APIVersion string // the resolved resource's group
	Kind       string
	Name       string
	UID        string
	FormRef    wire.FormRef        // the exact FormRef the target recorded
	Provided   []wire.InterfaceRef // the providedInterfaces of that Definition
	// NotReady is the hostReason of a derived not-ready state of the target
	// (docs/protocol.md#aggregate, e.g. "no-active-deployment"); "" when it is ready or has no
	// derived readiness. A binding to a not-ready target is refused (docs/protocol.md#aggregate).
	NotReady string
}

// Contracts answers what this host installs and implements (catalog plus profile).
type Contracts interface {
	// InstalledBinding returns the Binding the host installed and implements at exactly
	// ref (name, version and digest); false when it does not.
	InstalledBinding(ref wire.BindingRef) (*catalog.Binding, bool)
	// ImplementsInterface reports whether the host implements ref (a narrowed profile
	// may not, docs/protocol.md#support).
	ImplementsInterface(ref wire.InterfaceRef) bool
}

// VerifyReference applies the resolution steps of docs/protocol.md#relations to one reference
// of source, given what it resolved to: first failure wins.
//
//  1. target absent → resource_not_found naming the pointer;
//  2. resolved group/kind differ from the node's → invalid_argument;
//  3. contract (target formrefs or required interface) → invalid_argument, or
//     unsupported_capability when the target provides the interface but the host does
//     not implement it.
//
// For a binding-list entry, step 3 is replaced by the binding checks in table order:
// 1 accepted binding name (invalid_argument), 2 installed at that digest
// (unsupported_capability), 3 source role (invalid_argument), 4 allowed target forms
// (invalid_argument), 5 target interface (invalid_argument), 7 the node's own contract,
// then the entry name against bindingNameGrammar (invalid_argument) and last the
// readiness of the target (unsupported_capability).
func VerifyReference(source *catalog.Form, ref Reference, target Target, host Contracts) *Refusal {
	rel := ref.Relation
	what := fmt.Sprintf("%s %q (%s)", ref.Kind, ref.Name, ref.APIVersion)
	if !target.Found {
		return refuse(wire.CodeResourceNotFound, ref.Pointer,
			"%s: relation %s: %s does not exist in the caller's tenant and space; create it first or name an existing %s",
			ref.Pointer, rel.Pointer, what, rel.TargetKind)
	}
	if target.APIVersion != rel.TargetAPIVersion || target.Kind != rel.TargetKind {
		return invalid(ref.Pointer, "%s: relation %s accepts only %s %s targets; %q resolved to %s %s",
			ref.Pointer, rel.Pointer, rel.TargetAPIVersion, rel.TargetKind, ref.Name, target.APIVersion, target.Kind)
	}
	var def *catalog.Binding // the binding of a binding-list entry, as installed
	if ref.Binding != nil {
		var r *Refusal
		if def, r = verifyBinding(source, ref, target, host); r != nil {
			return r
		}
	}
	if r := verifyContract(ref, target, host); r != nil {
		return r
	}
	if def != nil {
		return verifyBindingEntry(ref, def, target)
	}
	return nil
}

// verifyBinding is binding checks 1 to 5; it returns the accepted binding as the host
// installed it (check 2), whose grammar the entry's name is checked against last.
func verifyBinding(source *catalog.Form, ref Reference, target Target, host Contracts) (*catalog.Binding, *Refusal) {
	p, b := ref.Pointer, ref.Binding
	i := slices.IndexFunc(source.Accepted, func(a wire.BindingRef) bool { return a.Name == b.Name })
	if i < 0 {
		return nil, invalid(p, "%s: binding check 1: %s does not accept binding %q (it accepts %s)",
			p, source.Ref, b.Name, bindingNames(source.Accepted))
	}
	accepted := source.Accepted[i]
	def, ok := host.InstalledBinding(accepted)
	if !ok {
		return nil, refuse(wire.CodeUnsupportedCapability, p,
			"%s: binding check 2: this host does not install binding %s; use a host that supports it (see its BindingSupport profile) or remove the binding",
			p, accepted)
	}
	if def.SourceRole != source.Role {
		return nil, invalid(p, "%s: binding check 3: binding %s is for sources of role %q; %s has role %q",
			p, accepted, def.SourceRole, source.Ref.Kind, source.Role)
	}
	if !slices.Contains(def.AllowedTargetForms, catalog.KindName{APIVersion: target.APIVersion, Kind: target.Kind}) {
		return nil, invalid(p, "%s: binding check 4: binding %s may target only %s; %q is a %s %s",
			p, accepted, kindNames(def.AllowedTargetForms), ref.Name, target.APIVersion, target.Kind)
	}
	if !slices.Contains(target.Provided, def.TargetInterface) {
		return nil, invalid(p, "%s: binding check 5: binding %s needs a target providing interface %s; %s %q (%s) does not provide it",
			p, accepted, def.TargetInterface, target.Kind, ref.Name, refText(target.FormRef))
	}
	return def, nil
}

// verifyContract is step 3 (binding check 7 for binding entries).
func verifyContract(ref Reference, target Target, host Contracts) *Refusal {
	rel, p := ref.Relation, ref.Pointer
	check := "contract"
	if ref.Binding != nil {
		check = "binding check 7 (contract)"
	}
	if len(rel.TargetFormRefs) > 0 {
		if slices.Contains(rel.TargetFormRefs, target.FormRef) {
			return nil
		}
		want := make([]string, len(rel.TargetFormRefs))
		for i, r := range rel.TargetFormRefs {
			want[i] = refText(r)
		}
		return invalid(p, "%s: %s of relation %s: the target must be recorded under %s; %s %q is recorded under %s",
			p, check, rel.Pointer, strings.Join(want, " or "), target.Kind, ref.Name, refText(target.FormRef))
	}
	if iface := rel.RequiredInterface; iface != nil {
		if !slices.Contains(target.Provided, *iface) {
			return invalid(p, "%s: %s of relation %s: the target's Definition must provide interface %s; %s %q (%s) does not",
				p, check, rel.Pointer, *iface, target.Kind, ref.Name, refText(target.FormRef))
		}
		if !host.ImplementsInterface(*iface) {
			return refuse(wire.CodeUnsupportedCapability, p,
				"%s: relation %s needs interface %s, which %s %q provides but this host does not implement (see its InterfaceSupport profile)",
				p, rel.Pointer, *iface, target.Kind, ref.Name)
		}
	}
	return nil
}

// verifyBindingEntry checks the entry's name against the grammar of def, the binding
// check 2 found installed (an empty grammar matches every name), then the target's readiness.
func verifyBindingEntry(ref Reference, def *catalog.Binding, target Target) *Refusal {
	if re, err := regexp.Compile(def.NameGrammar); err == nil && !re.MatchString(ref.EntryName) {
		np := ref.EntryPointer + "/name"
		return invalid(np, "%s: binding name %q does not match the grammar %s of binding %s",
			np, ref.EntryName, def.NameGrammar, ref.Binding.Name)
	}
	if target.NotReady != "" {
		return refuse(wire.CodeUnsupportedCapability, ref.Pointer,
			"%s: binding %s targets %s %q, which is not ready (hostReason %s); make the target ready first (for a worker: an active deployment whose every version declares fetch)",
			ref.Pointer, ref.Binding.Name, target.Kind, ref.Name, target.NotReady)
	}
	return nil
}

// refText renders an exact FormRef as messages name it: group Kind version digest.
func refText(r wire.FormRef) string {
	return fmt.Sprintf("%s %s %s %s", r.APIVersion, r.Kind, r.DefinitionVersion, r.SchemaDigest)
}

func bindingNames(refs []wire.BindingRef) string {
	if len(refs) == 0 {
		return "none"
	}
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Name
	}
	return strings.Join(names, ", ")
}

func kindNames(ks []catalog.KindName) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.APIVersion + " " + k.Kind
	}
	return strings.Join(s, ", ")
}

// HostContracts is the Contracts of a host: what its catalog installs, narrowed by the
// profile's choices. A nil func means "everything installed is implemented".
type HostContracts struct {
	Catalog              *catalog.Catalog
	BindingImplemented   func(wire.BindingRef) bool
	InterfaceImplemented func(wire.InterfaceRef) bool
}

// InstalledBinding finds the catalog Binding with exactly ref (digest included) that the
// host implements.
func (h HostContracts) InstalledBinding(ref wire.BindingRef) (*catalog.Binding, bool) {
	b, ok := h.Catalog.Binding(ref.Name, ref.Version)
	if !ok || b.Ref != ref || (h.BindingImplemented != nil && !h.BindingImplemented(ref)) {
		return nil, false
	}
	return b, true
}

// ImplementsInterface reports whether the host implements ref.
func (h HostContracts) ImplementsInterface(ref wire.InterfaceRef) bool {
	return h.InterfaceImplemented == nil || h.InterfaceImplemented(ref)
}
