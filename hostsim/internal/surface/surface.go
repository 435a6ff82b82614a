// Package surface is what a host says about itself (docs/protocol.md#discovery,
// #support): the discovery document, the exact-FormRef availability probe and
// definition read, and the support profiles of the profile in force. Each
// answer is a JSON body or a refusal; the lane routes the seven requests to the
// Serve methods (routes.go), which write them through a narrow Call.
package surface

import (
	"cmp"
	"context"
	"encoding/json"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

// Surface answers for one host profile.
type Surface struct {
	Host *profile.Host
}

func marshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// Discovery is the discovery document for the public origin (scheme and host).
func (s *Surface) Discovery(origin string, fs *fault.Set) []byte {
	lane := s.Host.Cat.Lane()
	api := origin + lane.APIRoot
	features := map[string]bool{"service_forms": true, "exact_form_ref": true, "optimistic_concurrency": true,
		"idempotent_lifecycle": true, "operations": true, "artifact_upload": true, "support_profiles": true,
		"resource_form_transition": true}
	if v, ok := fs.Value(fault.DiscoveryOmitFeature); ok {
		delete(features, cmp.Or(v, "exact_form_ref"))
	}
	return marshal(map[string]any{
		"api_versions": []string{lane.APIVersion},
		"features":     features,
		"endpoints": map[string]string{"api": api, "artifacts": api + "/artifacts", "operations": api + "/operations",
			"support": api + "/support"},
	})
}

// exact is the installed Form answering an exact FormRef query (f resolved it).
func (s *Surface) exact(ref wire.FormRef, f *catalog.Form, fs *fault.Set) (wire.FormRef, *catalog.Form) {
	if n := s.newestOf(f); n != f {
		if fs.On(fault.FormRefCollapse) {
			return n.Ref, n
		}
	}
	return ref, f
}

// newestOf is the last installed version of f's kind.
func (s *Surface) newestOf(f *catalog.Form) *catalog.Form {
	k, ok := s.Host.Cat.Kind(f.Ref.APIVersion, f.Ref.Kind)
	if !ok {
		return f
	}
	newest := f
	for _, v := range k.Versions {
		if g, ok := s.Host.Form(v.Ref); ok {
			newest = g
		}
	}
	return newest
}

// Forms is the availability of one exact FormRef, installed as f.
func (s *Surface) Forms(ref wire.FormRef, f *catalog.Form, fs *fault.Set) []byte {
	ref, f = s.exact(ref, f, fs)
	activated := true
	if fs.On(fault.FormsUnavailable) {
		activated = false
	}
	avail := map[string]any{"identity": identity(ref, f.PackageDigest), "definitionKnown": true, "installed": true,
		"executable": true, "activated": activated, "availableToPrincipal": true, "operations": s.Host.Operations(f)}
	return marshal(map[string]any{"forms": []any{avail}})
}

// FormDefinition is the installed definition of an exact FormRef; the path's
// group and kind must agree with it.
func (s *Surface) FormDefinition(ref wire.FormRef, f *catalog.Form, group, kind string, fs *fault.Set) ([]byte, *wire.Error) {
	ref, f = s.exact(ref, f, fs)
	if group != ref.APIVersion || kind != ref.Kind {
		return nil, decide.Invalid("the path names %s %s but the query names %s %s; they must agree", group, kind, ref.APIVersion, ref.Kind)
	}
	schema := json.RawMessage(f.DesiredJSON)
	if fs.On(fault.DefinitionDrift) {
		schema = drifted(schema)
	}
	doc := map[string]any{"identity": identity(ref, f.PackageDigest), "desiredSchema": schema}
	if f.Title != "" {
		doc["displayName"] = f.Title
	}
	if f.Description != "" {
		doc["description"] = f.Description
	}
	return marshal(doc), nil
}

// drifted adds an annotation member to a desiredSchema (fault definition.drift).
func drifted(schema json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(schema, &m) != nil {
		return schema
	}
	m["$comment"] = "drifted by the hostsim fault definition.drift"
	return marshal(m)
}

func identity(ref wire.FormRef, pkg string) map[string]any {
	id := map[string]any{"formRef": ref}
	if pkg != "" {
		id["packageDigest"] = pkg
	}
	return id
}

// gate applies the profile's support mode: unavailable, or slow.
func (s *Surface) gate(ctx context.Context) *wire.Error {
	m := s.Host.P.SupportMode()
	switch m.Mode {
	case "unavailable":
		return decide.Refuse(wire.CodeBackendUnavailable, "support profiles are unavailable on this host (profile %q); retry later", s.Host.P.Name)
	case "slow":
		select {
		case <-time.After(m.Delay):
		case <-ctx.Done():
		}
	}
	return nil
}

// SupportForms lists the FormSupport profile of every installed FormRef.
func (s *Surface) SupportForms(ctx context.Context, fs *fault.Set) ([]byte, *wire.Error) {
	if err := s.gate(ctx); err != nil {
		return nil, err
	}
	priced := fs.On(fault.SupportCommercial)
	list := []any{}
	for _, f := range s.Host.Forms() {
		list = append(list, commercial(compatibility(s.Host.FormSupport(f), f.Ref.Kind, fs), priced))
	}
	return marshal(map[string]any{"profiles": list}), nil
}

// SupportForm is the FormSupport profile of one installed Form line.
func (s *Surface) SupportForm(ctx context.Context, group, kind, version string, fs *fault.Set) ([]byte, *wire.Error) {
	if err := s.gate(ctx); err != nil {
		return nil, err
	}
	f, ok := s.Host.FormLine(group, kind, version)
	if !ok {
		if fs.On(fault.SupportRefuseCode) {
			return nil, decide.NotFound("this host (profile %q) installs no %s %s %s", s.Host.P.Name, group, kind, version)
		}
		return nil, decide.Refuse(wire.CodeFormUnknown, "this host (profile %q) installs no %s %s %s", s.Host.P.Name, group, kind, version)
	}
	if _, ok := fs.Where(fault.SupportOmitProfile, s.omitted(f)); ok {
		return nil, decide.Refuse(wire.CodeFormUnknown, "this host (profile %q) withholds the support profile of %s %s %s (fault %s)", s.Host.P.Name, group, kind, version, fault.SupportOmitProfile)
	}
	return marshal(commercial(compatibility(s.Host.FormSupport(f), f.Ref.Kind, fs), fs.On(fault.SupportCommercial))), nil
}

// SupportInterface is the InterfaceSupport profile of an implemented interface.
func (s *Surface) SupportInterface(ctx context.Context, name, version string, fs *fault.Set) ([]byte, *wire.Error) {
	if err := s.gate(ctx); err != nil {
		return nil, err
	}
	i, ok := s.Host.Interface(name, version)
	if !ok {
		return nil, s.noContract("interface", name, version, fs)
	}
	ref := i.Ref
	if _, ok := fs.Where(fault.SupportInterfaceDigest, named(name)); ok {
		ref.SchemaDigest = otherDigest(ref.SchemaDigest)
	}
	return marshal(commercial(profile.ContractSupport("InterfaceSupport", "interfaceRef", ref), fs.On(fault.SupportCommercial))), nil
}

// SupportBinding is the BindingSupport profile of an implemented binding.
func (s *Surface) SupportBinding(ctx context.Context, name, version string, fs *fault.Set) ([]byte, *wire.Error) {
	if err := s.gate(ctx); err != nil {
		return nil, err
	}
	b, ok := s.Host.Binding(name, version)
	if !ok {
		return nil, s.noContract("binding", name, version, fs)
	}
	ref := b.Ref
	if _, ok := fs.Where(fault.SupportBindingDigest, named(name)); ok {
		ref.SchemaDigest = otherDigest(ref.SchemaDigest)
	}
	return marshal(commercial(profile.ContractSupport("BindingSupport", "bindingRef", ref), fs.On(fault.SupportCommercial))), nil
}

// noContract is the refusal of a contract route the host does not implement.
func (s *Surface) noContract(what, name, version string, fs *fault.Set) *wire.Error {
	if fs.On(fault.SupportRefuseCode) {
		return decide.Refuse(wire.CodeFormUnknown, "this host (profile %q) does not implement %s %s@%s", s.Host.P.Name, what, name, version)
	}
	return decide.NotFound("this host (profile %q) does not implement %s %s@%s", s.Host.P.Name, what, name, version)
}
