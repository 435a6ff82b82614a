package lane

import (
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/profile"
)

type formAndRef struct {
	ref wire.FormRef
	pkg string
	f   *catalog.Form
}

// supportForms answers GET {api}/support/forms.
func (c *call) supportForms() *apiError {
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
func (c *call) supportForm() *apiError {
	if err := c.supportGate(); err != nil {
		return err
	}
	group := c.params["group"] + "/" + c.params["version"]
	f, ok := c.s.Host.FormLine(group, c.params["kind"], c.params["definitionVersion"])
	if !ok {
		return fail(wire.CodeFormUnknown, "this host (profile %q) installs no %s %s %s", c.s.Host.P.Name, group,
			c.params["kind"], c.params["definitionVersion"])
	}
	c.send(http.StatusOK, marshal(c.s.Host.FormSupport(f)), "")
	return nil
}

// supportInterface answers GET {api}/support/interfaces/{name}/{version}.
func (c *call) supportInterface() *apiError {
	if err := c.supportGate(); err != nil {
		return err
	}
	i, ok := c.s.Host.Interface(c.params["iname"], c.params["iversion"])
	if !ok {
		return notFound("this host (profile %q) does not implement interface %s@%s", c.s.Host.P.Name, c.params["iname"], c.params["iversion"])
	}
	c.send(http.StatusOK, marshal(profile.ContractSupport("InterfaceSupport", "interfaceRef", i.Ref)), "")
	return nil
}

// supportBinding answers GET {api}/support/bindings/{name}/{version}.
func (c *call) supportBinding() *apiError {
	if err := c.supportGate(); err != nil {
		return err
	}
	b, ok := c.s.Host.Binding(c.params["iname"], c.params["iversion"])
	if !ok {
		return notFound("this host (profile %q) does not implement binding %s@%s", c.s.Host.P.Name, c.params["iname"], c.params["iversion"])
	}
	c.send(http.StatusOK, marshal(profile.ContractSupport("BindingSupport", "bindingRef", b.Ref)), "")
	return nil
}
