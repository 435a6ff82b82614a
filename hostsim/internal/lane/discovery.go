package lane

import (
	"cmp"
	"encoding/json"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

// The catalog surface: discovery, the exact-FormRef probes and the support
// profiles (docs/protocol.md#discovery, #support).

// origin is the public origin: scheme and Host of the request.
func (c *call) origin() string {
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.r.Host
}

// discovery answers GET /.well-known/takoform/v1alpha3.
func discovery(c *call) *wire.Error {
	api := c.origin() + APIRoot
	features := map[string]bool{"service_forms": true, "exact_form_ref": true, "optimistic_concurrency": true,
		"idempotent_lifecycle": true, "operations": true, "artifact_upload": true, "support_profiles": true,
		"resource_form_transition": true}
	if v, ok := c.fs.Value(fault.DiscoveryOmitFeature); ok {
		delete(features, cmp.Or(v, "exact_form_ref"))
	}
	doc := map[string]any{
		"api_versions": []string{"forms.takoform.com/v1alpha3"},
		"features":     features,
		"endpoints": map[string]string{"api": api, "artifacts": api + "/artifacts", "operations": api + "/operations",
			"support": api + "/support"},
	}
	c.send(http.StatusOK, marshal(doc), "")
	return nil
}

// exactForm reads the exact query of forms and form-definition.
func (c *call) exactForm() (wire.FormRef, *catalog.Form, *wire.Error) {
	_, ref, err := c.exactQuery()
	if err != nil {
		return ref, nil, err
	}
	f, err := c.installed(ref)
	if err != nil {
		return ref, nil, err
	}
	if n := c.newestOf(f); n != f {
		if c.fs.On(fault.FormRefCollapse) {
			f, ref = n, n.Ref
		}
	}
	return ref, f, nil
}

// newestOf is the last installed version of f's kind.
func (c *call) newestOf(f *catalog.Form) *catalog.Form {
	k, ok := c.s.Host.Cat.Kind(f.Ref.APIVersion, f.Ref.Kind)
	if !ok {
		return f
	}
	newest := f
	for _, v := range k.Versions {
		if g, ok := c.s.Host.Form(v.Ref); ok {
			newest = g
		}
	}
	return newest
}

// forms answers GET {api}/forms: the availability of one exact FormRef.
func forms(c *call) *wire.Error {
	ref, f, err := c.exactForm()
	if err != nil {
		return err
	}
	activated := true
	if c.fs.On(fault.FormsUnavailable) {
		activated = false
	}
	avail := map[string]any{"identity": identity(ref, f.PackageDigest), "definitionKnown": true, "installed": true,
		"executable": true, "activated": activated, "availableToPrincipal": true, "operations": c.s.Host.Operations(f)}
	c.send(http.StatusOK, marshal(map[string]any{"forms": []any{avail}}), "")
	return nil
}

// formDefinition answers GET {api}/form-definitions/{group}/{version}/{kind}.
func formDefinition(c *call) *wire.Error {
	ref, f, err := c.exactForm()
	if err != nil {
		return err
	}
	if err := c.pathAgrees(ref); err != nil {
		return err
	}
	schema := json.RawMessage(f.DesiredJSON)
	if c.fs.On(fault.DefinitionDrift) {
		schema = drifted(schema)
	}
	doc := map[string]any{"identity": identity(ref, f.PackageDigest), "desiredSchema": schema}
	if f.Title != "" {
		doc["displayName"] = f.Title
	}
	if f.Description != "" {
		doc["description"] = f.Description
	}
	c.send(http.StatusOK, marshal(doc), "")
	return nil
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

// supportGate applies the profile's support mode.
func (c *call) supportGate() *wire.Error {
	m := c.s.Host.P.SupportMode()
	switch m.Mode {
	case "unavailable":
		return core.Refuse(wire.CodeBackendUnavailable, "support profiles are unavailable on this host (profile %q); retry later", c.s.Host.P.Name)
	case "slow":
		select {
		case <-time.After(m.Delay):
		case <-c.ctx.Done():
		}
	}
	return nil
}

// supportForms answers GET {api}/support/forms.
func supportForms(c *call) *wire.Error {
	if err := c.supportGate(); err != nil {
		return err
	}
	list := []any{}
	for _, f := range c.s.Host.Forms() {
		list = append(list, c.s.Host.FormSupport(f))
	}
	c.send(http.StatusOK, marshal(map[string]any{"profiles": list}), "")
	return nil
}

// supportForm answers GET {api}/support/forms/{group}/{version}/{kind}/{definitionVersion}.
func supportForm(c *call) *wire.Error {
	if err := c.supportGate(); err != nil {
		return err
	}
	f, ok := c.s.Host.FormLine(c.group(), c.params["kind"], c.params["definitionVersion"])
	if !ok {
		return core.Refuse(wire.CodeFormUnknown, "this host (profile %q) installs no %s %s %s", c.s.Host.P.Name, c.group(),
			c.params["kind"], c.params["definitionVersion"])
	}
	c.send(http.StatusOK, marshal(c.s.Host.FormSupport(f)), "")
	return nil
}

// supportInterface answers GET {api}/support/interfaces/{name}/{version}.
func supportInterface(c *call) *wire.Error {
	if err := c.supportGate(); err != nil {
		return err
	}
	i, ok := c.s.Host.Interface(c.params["iname"], c.params["iversion"])
	if !ok {
		return core.NotFound("this host (profile %q) does not implement interface %s@%s", c.s.Host.P.Name, c.params["iname"], c.params["iversion"])
	}
	c.send(http.StatusOK, marshal(profile.ContractSupport("InterfaceSupport", "interfaceRef", i.Ref)), "")
	return nil
}

// supportBinding answers GET {api}/support/bindings/{name}/{version}.
func supportBinding(c *call) *wire.Error {
	if err := c.supportGate(); err != nil {
		return err
	}
	b, ok := c.s.Host.Binding(c.params["iname"], c.params["iversion"])
	if !ok {
		return core.NotFound("this host (profile %q) does not implement binding %s@%s", c.s.Host.P.Name, c.params["iname"], c.params["iversion"])
	}
	c.send(http.StatusOK, marshal(profile.ContractSupport("BindingSupport", "bindingRef", b.Ref)), "")
	return nil
}
