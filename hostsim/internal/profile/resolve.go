package profile

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// Host is a profile resolved against a catalog: what is installed and what
// each Form's support profile says.
type Host struct {
	P          *Profile
	Cat        *catalog.Catalog
	forms      []*catalog.Form
	byRef      map[wire.FormRef]*catalog.Form
	interfaces []*catalog.Interface
	bindings   []*catalog.Binding
}

// Resolve applies the profile's selections to the catalog.
func Resolve(p *Profile, cat *catalog.Catalog) *Host {
	h := &Host{P: p, Cat: cat, byRef: map[wire.FormRef]*catalog.Form{}}
	for _, f := range cat.Forms() {
		if !selected(p.Forms, f.Ref.Kind, f.Ref.Kind+"@"+f.Ref.DefinitionVersion) {
			continue
		}
		// A host that cannot assign addresses installs no Form whose outputs it
		// would have to assign (docs/decisions.md: endpoints.assign).
		if !p.AssignsEndpoints() && f.HasOutputs() {
			continue
		}
		h.forms = append(h.forms, f)
		h.byRef[f.Ref] = f
	}
	for _, i := range cat.Interfaces() {
		if selected(p.Interfaces, i.Ref.Name, i.Ref.Name+"@"+i.Ref.Version) {
			h.interfaces = append(h.interfaces, i)
		}
	}
	for _, b := range cat.Bindings() {
		if selected(p.Bindings, b.Ref.Name, b.Ref.Name+"@"+b.Ref.Version) {
			h.bindings = append(h.bindings, b)
		}
	}
	return h
}

func selected(s *Selection, names ...string) bool {
	if s == nil {
		return true
	}
	hit := func(list []string) bool {
		for _, n := range names {
			if slices.Contains(list, n) {
				return true
			}
		}
		return false
	}
	if s.Include != nil && !hit(s.Include) {
		return false
	}
	return !hit(s.Exclude)
}

// Form returns the installed Form with exactly ref.
func (h *Host) Form(ref wire.FormRef) (*catalog.Form, bool) {
	f, ok := h.byRef[ref]
	return f, ok
}

// Forms lists the installed Forms.
func (h *Host) Forms() []*catalog.Form { return slices.Clone(h.forms) }

// FormLine finds the installed Form of group, kind and definition version.
func (h *Host) FormLine(group, kind, version string) (*catalog.Form, bool) {
	for _, f := range h.forms {
		if f.Ref.APIVersion == group && f.Ref.Kind == kind && f.Ref.DefinitionVersion == version {
			return f, true
		}
	}
	return nil, false
}

// Interface returns the implemented interface name@version.
func (h *Host) Interface(name, version string) (*catalog.Interface, bool) {
	for _, i := range h.interfaces {
		if i.Ref.Name == name && i.Ref.Version == version {
			return i, true
		}
	}
	return nil, false
}

// Implements reports whether the host implements exactly ref.
func (h *Host) Implements(ref wire.InterfaceRef) bool {
	i, ok := h.Interface(ref.Name, ref.Version)
	return ok && i.Ref == ref
}

// Interfaces lists the implemented interfaces.
func (h *Host) Interfaces() []*catalog.Interface { return slices.Clone(h.interfaces) }

// Binding returns the installed binding name@version.
func (h *Host) Binding(name, version string) (*catalog.Binding, bool) {
	for _, b := range h.bindings {
		if b.Ref.Name == name && b.Ref.Version == version {
			return b, true
		}
	}
	return nil, false
}

// Bindings lists the installed bindings.
func (h *Host) Bindings() []*catalog.Binding { return slices.Clone(h.bindings) }

// keyed returns the per-kind member for f: "Kind@version" wins over "Kind".
func keyed[V any](m map[string]V, f *catalog.Form) (V, bool) {
	if v, ok := m[f.Ref.Kind+"@"+f.Ref.DefinitionVersion]; ok {
		return v, true
	}
	v, ok := m[f.Ref.Kind]
	return v, ok
}

// Operations is the Form's lifecycle capabilities narrowed by the profile, in order.
func (h *Host) Operations(f *catalog.Form) []string {
	allowed, ok := keyed(h.P.Operations, f)
	if !ok {
		return slices.Clone(f.Capabilities)
	}
	var out []string
	for _, c := range f.Capabilities {
		if slices.Contains(allowed, c) {
			out = append(out, c)
		}
	}
	return out
}

// Async reports whether mutations of f answer 202, and after how many polls they commit.
func (h *Host) Async(f *catalog.Form) (bool, int64) {
	if h.P.Async == nil {
		return false, 2
	}
	return slices.Contains(h.P.Async.Kinds, f.Ref.Kind), h.P.CompleteAfter()
}

// FormSupport renders the FormSupport profile of f (docs/protocol.md#support).
func (h *Host) FormSupport(f *catalog.Form) map[string]any {
	doc := map[string]any{
		"apiVersion": "support.takoform.com/v1alpha1",
		"kind":       "FormSupport",
		"formRef":    f.Ref,
		"operations": h.Operations(f),
	}
	if h.P.SupportMode().Mode == "silent" {
		return doc
	}
	if e, ok := keyed(h.P.SupportedEnums, f); ok && len(e) > 0 {
		doc["supportedEnums"] = e
	}
	if r, ok := keyed(h.P.SupportedRanges, f); ok && len(r) > 0 {
		doc["supportedRanges"] = r
	}
	if l := h.PublishedLimits(f); len(l) > 0 {
		doc["limits"] = l
	}
	var bindings []string
	for _, a := range f.Accepted {
		if b, ok := h.Binding(a.Name, a.Version); ok && b.Ref == a {
			bindings = append(bindings, a.Name+"@"+a.Version)
		}
	}
	if len(bindings) > 0 {
		doc["supportedBindings"] = bindings
	}
	return doc
}

// ContractSupport renders an InterfaceSupport or BindingSupport profile.
func ContractSupport(kind, member string, ref any) map[string]any {
	return map[string]any{"apiVersion": "support.takoform.com/v1alpha1", "kind": kind, member: ref}
}

// rangeBound decodes one bound: an integer (json.Number) or a string.
func rangeBound(b json.RawMessage) (any, bool) {
	if len(b) == 0 {
		return nil, false
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s, true
	}
	return json.Number(strings.TrimSpace(string(b))), true
}
