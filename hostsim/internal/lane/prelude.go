package lane

import (
	"fmt"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// authenticate maps the bearer credential to (tenant, principal) (docs/protocol.md#auth).
func authenticate(c *call) *wire.Error {
	e := credential(c)
	tokens := c.s.Options.Tokens
	if e != nil && len(tokens) > 0 {
		if c.fs.On(fault.AuthAcceptAny) {
			c.who = tokens[0]
			return nil
		}
	}
	if e == nil && len(tokens) > 0 && c.who.Tenant != tokens[0].Tenant {
		if c.fs.On(fault.TenantIgnore) {
			c.who.Tenant = tokens[0].Tenant
		}
	}
	return e
}

func credential(c *call) *wire.Error {
	vals := c.r.Header.Values(wire.HeaderAuthorization)
	if len(vals) != 1 {
		return decide.Refuse(wire.CodeUnauthenticated, "send exactly one Authorization: Bearer <token> header")
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" || strings.ContainsAny(token, " \t") {
		return decide.Refuse(wire.CodeUnauthenticated, "the Authorization header is not \"Bearer <token>\"")
	}
	p, ok := c.s.tokens[token]
	if !ok {
		return decide.Refuse(wire.CodeUnauthenticated, "the bearer token names no principal of this host; check the configured token")
	}
	c.who = p
	return nil
}

// probeValues are the accepted Takoform-Conformance-Probe values (docs/protocol.md#probes).
var probeValues = []string{"async", "touch-status", "external-change", "transition-reject", "transition-hold"}

// readProbe honours the conformance probe header under --conformance-probes.
func readProbe(c *call) *wire.Error {
	if !c.s.Probes {
		return nil
	}
	vals := c.r.Header.Values(wire.HeaderConformanceProbe)
	if len(vals) == 0 {
		return nil
	}
	if len(vals) > 1 {
		return decide.Invalid("send at most one Takoform-Conformance-Probe header")
	}
	v := vals[0]
	if code, ok := strings.CutPrefix(v, "error:"); ok {
		if !wire.Code(code).Known() {
			return decide.Invalid("probe error:%s names no error code of the lane", code)
		}
		return decide.Refuse(wire.Code(code), "error %s injected by the Takoform-Conformance-Probe header", code)
	}
	for _, p := range probeValues {
		if v == p {
			c.probe = v
			return nil
		}
	}
	return decide.Invalid("Takoform-Conformance-Probe value %q is unknown; use async, touch-status, external-change, error:<code>, transition-reject or transition-hold", v)
}

// requestFaults are the request-stage faults scoped to this request: an
// added delay, then an injected error.
func requestFaults(c *call) *wire.Error {
	if v, ok := c.fs.Value(fault.Latency); ok {
		d, _ := time.ParseDuration(v)
		select {
		case <-time.After(d):
		case <-c.ctx.Done():
		}
	}
	if c.fs.On(fault.Panic) {
		panic(fmt.Sprintf("hostsim fault %s: request %s %s panics on purpose", fault.Panic, c.r.Method, c.r.URL.EscapedPath()))
	}
	if code, ok := c.fs.Value(fault.InjectedError); ok {
		return decide.Refuse(wire.Code(code), "error %s injected by an armed hostsim fault (%s=%s)", code, fault.InjectedError, code)
	}
	return nil
}

// escapedPath is the request path routing uses (segments decode one by one).
func escapedPath(c *call) string {
	p := c.escaped()
	// "%2F" in either case, without upper-casing a copy of every path
	if strings.Contains(p, "%2F") || strings.Contains(p, "%2f") {
		if c.fs.On(fault.PathDecodeGroup) {
			return strings.NewReplacer("%2F", "/", "%2f", "/").Replace(p)
		}
	}
	return p
}

// segmentGrammars checks the {kind}, {name} and operation {id} segments.
func segmentGrammars(c *call) *wire.Error {
	if k, ok := c.params["kind"]; ok && !wire.ValidKind(k) {
		return decide.Invalid("path segment kind %q must match ^[A-Z][A-Za-z0-9]{0,63}$", k)
	}
	if n, ok := c.params["name"]; ok && !wire.ValidResourceName(n) {
		return decide.Invalid("path segment name %q must match ^[a-z][a-z0-9-]{0,62}$", n)
	}
	if id, ok := c.params["id"]; ok && !strings.HasPrefix(id, "op_") {
		return decide.Refuse(wire.CodeOperationNotFound, "operation %q is unknown (operation ids start with op_)", id)
	}
	return nil
}
