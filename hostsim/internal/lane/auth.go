package lane

import (
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

func validKind(s string) bool { return wire.ValidKind(s) }
func validName(s string) bool { return wire.ValidResourceName(s) }

// authenticate maps the bearer credential to (tenant, principal) (host-api.md §3.1).
// Under the fault auth.accept-any a request without a valid credential is served as the
// first configured principal, so the conformance check unauthenticated-request-refused
// can be shown to fail.
func (c *call) authenticate() *apiError {
	e := c.credential()
	if e != nil && len(c.s.Options.Tokens) > 0 && c.faultOn("auth.accept-any") {
		c.who = c.s.Options.Tokens[0]
		return nil
	}
	if e == nil && len(c.s.Options.Tokens) > 0 && c.who.Tenant != c.s.Options.Tokens[0].Tenant && c.faultOn("tenant.ignore") {
		c.who.Tenant = c.s.Options.Tokens[0].Tenant
	}
	return e
}

func (c *call) credential() *apiError {
	vals := c.r.Header.Values("Authorization")
	if len(vals) != 1 {
		return fail(wire.CodeUnauthenticated, "send exactly one Authorization: Bearer <token> header")
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return fail(wire.CodeUnauthenticated, "the Authorization header is not \"Bearer <token>\"")
	}
	p, ok := c.s.tokens[token]
	if !ok {
		return fail(wire.CodeUnauthenticated, "the bearer token names no principal of this host; check the configured token")
	}
	c.who = p
	return nil
}

// probeValues are the accepted Takoform-Conformance-Probe values (host-api.md §21).
var probeValues = []string{"async", "touch-status", "external-change", "transition-reject", "transition-hold"}

// readProbe honours the conformance probe header under --conformance-probes.
func (c *call) readProbe() *apiError {
	if !c.s.Probes {
		return nil
	}
	vals := c.r.Header.Values("Takoform-Conformance-Probe")
	if len(vals) == 0 {
		return nil
	}
	if len(vals) > 1 {
		return invalid("send at most one Takoform-Conformance-Probe header")
	}
	v := vals[0]
	if code, ok := strings.CutPrefix(v, "error:"); ok {
		if !wire.Code(code).Known() {
			return invalid("probe error:%s names no error code of the lane", code)
		}
		return fail(wire.Code(code), "error %s injected by the Takoform-Conformance-Probe header", code)
	}
	for _, p := range probeValues {
		if v == p {
			c.probe = v
			return nil
		}
	}
	return invalid("Takoform-Conformance-Probe value %q is unknown; use async, touch-status, external-change, error:<code>, transition-reject or transition-hold", v)
}

// requestFaults applies armed latency and error faults scoped to this request.
func (c *call) requestFaults() *apiError {
	a := c.s.Armory
	if a == nil {
		return nil
	}
	list, err := a.List(c.s.Store.DB())
	if err != nil {
		return internal(err)
	}
	for i := range list {
		f := &list[i]
		if !f.Spec.Matches(c.kind, c.name) {
			continue
		}
		switch f.Spec.Fault {
		case "latency":
			d, _ := time.ParseDuration(f.Spec.Value)
			c.fired(f)
			select {
			case <-time.After(d):
			case <-c.ctx.Done():
			}
		case "error":
			c.fired(f)
			return fail(wire.Code(f.Spec.Value), "error %s injected by an armed hostsim fault (%s)", f.Spec.Value, f.Spec.Text())
		}
	}
	return nil
}
