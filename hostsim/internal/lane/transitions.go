package lane

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// The lane hands the two form-transition routes to internal/transition once
// its prelude passed (authentication, probe, routing, request faults, segment
// grammars and, on the POST, the Idempotency-Key syntax).

func formTransition(c *call) *wire.Error {
	if c.s.Transitions == nil {
		return decide.NotFound("this host does not serve Form transitions")
	}
	return c.transitionAnswer(c.s.Transitions.Post(c.transitionCall()))
}

func formTransitionReadback(c *call) *wire.Error {
	if c.s.Transitions == nil {
		return decide.NotFound("this host does not serve Form transitions")
	}
	return c.transitionAnswer(c.s.Transitions.Readback(c.transitionCall()))
}

func (c *call) transitionCall() *transition.Call {
	return &transition.Call{Ctx: c.ctx, Tenant: c.who.Tenant, Principal: c.who.Principal,
		Group: c.group(), Kind: c.params["kind"], Name: c.params["name"], OperationID: c.params["txid"],
		Method: c.r.Method, Header: c.r.Header, RawQuery: c.r.URL.RawQuery, Body: c.body, Probe: c.probe, Faults: c.fs}
}

func (c *call) transitionAnswer(a transition.Answer) *wire.Error {
	switch {
	case a.Err != nil:
		return a.Err
	case a.Drop:
		if !c.drop() {
			panic(httpAbort) // not hijackable: abort the handler so the client sees no answer
		}
		return nil
	}
	c.send(a.Status, a.Body, a.ETag)
	return nil
}
