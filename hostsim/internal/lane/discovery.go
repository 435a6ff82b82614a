package lane

import (
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

// The routes of what the host says about itself, answered by internal/surface.

func discovery(c *call) *wire.Error {
	scheme := "http"
	if c.r.TLS != nil {
		scheme = "https"
	}
	c.send(http.StatusOK, c.s.Surface.Discovery(scheme+"://"+c.r.Host, c.fs), "")
	return nil
}

func forms(c *call) *wire.Error {
	_, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	f, err := c.s.Engine.Installed(ref, c.fs)
	if err != nil {
		return err
	}
	c.send(http.StatusOK, c.s.Surface.Forms(ref, f, c.fs), "")
	return nil
}

func formDefinition(c *call) *wire.Error {
	_, ref, err := c.exactQuery()
	if err != nil {
		return err
	}
	f, err := c.s.Engine.Installed(ref, c.fs)
	if err != nil {
		return err
	}
	return c.answer(c.s.Surface.FormDefinition(ref, f, c.group(), c.params["kind"], c.fs))
}

func supportForms(c *call) *wire.Error { return c.answer(c.s.Surface.SupportForms(c.ctx, c.fs)) }

func supportForm(c *call) *wire.Error {
	return c.answer(c.s.Surface.SupportForm(c.ctx, c.group(), c.params["kind"], c.params["definitionVersion"], c.fs))
}

func supportInterface(c *call) *wire.Error {
	return c.answer(c.s.Surface.SupportInterface(c.ctx, c.params["iname"], c.params["iversion"], c.fs))
}

func supportBinding(c *call) *wire.Error {
	return c.answer(c.s.Surface.SupportBinding(c.ctx, c.params["iname"], c.params["iversion"], c.fs))
}

// answer writes a 200 JSON body, or returns the refusal.
func (c *call) answer(body []byte, e *wire.Error) *wire.Error {
	if e != nil {
		return e
	}
	c.send(http.StatusOK, body, "")
	return nil
}
