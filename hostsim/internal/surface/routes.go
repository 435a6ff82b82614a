package surface

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// Call is what a discovery or support route needs from the lane's request in
// flight; the lane routes a request here once its prelude passed
// (docs/protocol.md#order), and this package never imports the lane.
type Call interface {
	Context() context.Context
	// Faults are the request's armed hostsim faults.
	Faults() *fault.Set
	// Param is a path parameter of the route.
	Param(name string) string
	// Origin is the scheme and host the request came to.
	Origin() string
	// ExactForm is the exact-FormRef query (docs/protocol.md#routes) and the
	// installed Form it names, or the refusal of either.
	ExactForm() (wire.FormRef, *catalog.Form, *wire.Error)
	// Send writes the answer: a JSON body and an ETag ("" for none).
	Send(status int, body []byte, etag string)
}

// ServeDiscovery answers GET the lane's discovery path (docs/protocol.md#discovery).
func (s *Surface) ServeDiscovery(c Call) *wire.Error {
	c.Send(http.StatusOK, s.Discovery(c.Origin(), c.Faults()), "")
	return nil
}

// ServeForms answers GET {api}/forms, the exact-FormRef availability probe.
func (s *Surface) ServeForms(c Call) *wire.Error {
	ref, f, err := c.ExactForm()
	if err != nil {
		return err
	}
	c.Send(http.StatusOK, s.Forms(ref, f, c.Faults()), "")
	return nil
}

// ServeFormDefinition answers GET {api}/form-definitions/{group}/{version}/{kind}.
func (s *Surface) ServeFormDefinition(c Call) *wire.Error {
	ref, f, err := c.ExactForm()
	if err != nil {
		return err
	}
	body, err := s.FormDefinition(ref, f, group(c), c.Param("kind"), c.Faults())
	return answer(c, body, err)
}

// ServeSupportForms answers GET {api}/support/forms (docs/protocol.md#support).
func (s *Surface) ServeSupportForms(c Call) *wire.Error {
	body, err := s.SupportForms(c.Context(), c.Faults())
	return answer(c, body, err)
}

// ServeSupportForm answers GET {api}/support/forms/{group}/{version}/{kind}/{definitionVersion}.
func (s *Surface) ServeSupportForm(c Call) *wire.Error {
	body, err := s.SupportForm(c.Context(), group(c), c.Param("kind"), c.Param("definitionVersion"), c.Faults())
	return answer(c, body, err)
}

// ServeSupportInterface answers GET {api}/support/interfaces/{iname}/{iversion}.
func (s *Surface) ServeSupportInterface(c Call) *wire.Error {
	body, err := s.SupportInterface(c.Context(), c.Param("iname"), c.Param("iversion"), c.Faults())
	return answer(c, body, err)
}

// ServeSupportBinding answers GET {api}/support/bindings/{iname}/{iversion}.
func (s *Surface) ServeSupportBinding(c Call) *wire.Error {
	body, err := s.SupportBinding(c.Context(), c.Param("iname"), c.Param("iversion"), c.Faults())
	return answer(c, body, err)
}

// group is the Form group of the path: {group}/{version}.
func group(c Call) string { return c.Param("group") + "/" + c.Param("version") }

// answer writes a 200 JSON body, or returns the refusal.
func answer(c Call, body []byte, e *wire.Error) *wire.Error {
	if e != nil {
		return e
	}
	c.Send(http.StatusOK, body, "")
	return nil
}
