package lane

import (
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/artifactroute"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/operationroute"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/surface"
)

// Some routes are answered by the package of their room, which never imports
// the lane: the artifact routes by internal/artifactroute
// (docs/protocol.md#artifacts), the operation poll and cancel by
// internal/operationroute (docs/protocol.md#operations), discovery and support
// by internal/surface (docs/protocol.md#discovery, #support). Such a package
// declares the few things it needs from the request in flight as a Call
// interface; roomCall implements them all over the lane's call.

// artifactRoute makes a handler of internal/artifactroute a route's handler.
func artifactRoute(h func(artifactroute.Call) *wire.Error) func(*call) *wire.Error {
	return func(c *call) *wire.Error { return h(roomCall{c}) }
}

// operationRoute makes a handler of internal/operationroute a route's handler.
func operationRoute(h func(*lifecycle.Engine, operationroute.Call) *wire.Error) func(*call) *wire.Error {
	return func(c *call) *wire.Error { return h(c.s.Engine, roomCall{c}) }
}

// surfaceRoute makes a route handler of internal/surface a route's handler.
func surfaceRoute(h func(*surface.Surface, surface.Call) *wire.Error) func(*call) *wire.Error {
	return func(c *call) *wire.Error { return h(c.s.Surface, roomCall{c}) }
}

// roomCall is the call as a room package sees it.
type roomCall struct{ c *call }

func (a roomCall) Caller() artifact.Caller {
	return artifact.Caller{Tenant: a.c.who.Tenant, Principal: a.c.who.Principal, Faults: a.c.fs}
}

func (a roomCall) Owner() (string, string)                   { return a.c.who.Tenant, a.c.who.Principal }
func (a roomCall) Context() context.Context                  { return a.c.ctx }
func (a roomCall) Faults() *fault.Set                        { return a.c.fs }
func (a roomCall) Param(name string) string                  { return a.c.params[name] }
func (a roomCall) Body() []byte                              { return a.c.body }
func (a roomCall) RequireEmptyBody() *wire.Error             { return a.c.requireEmptyBody() }
func (a roomCall) Send(status int, body []byte, etag string) { a.c.send(status, body, etag) }

func (a roomCall) BundleLimits() artifact.Limits {
	return a.c.s.Related.UploadLimits()
}

// Stream is the raw request body, never nil.
func (a roomCall) Stream() io.Reader {
	if a.c.r.Body == nil {
		return http.NoBody
	}
	return a.c.r.Body
}

func (a roomCall) Read(fn func(q store.Q) error) *wire.Error {
	if err := a.c.s.Store.Read(a.c.ctx, fn); err != nil {
		return asRefusal(err)
	}
	return nil
}

func (a roomCall) Write(fn func(q store.Q) error) *wire.Error {
	if err := a.c.write(fn); err != nil {
		return asRefusal(err)
	}
	return nil
}

// Replay and Record key the request in space "" (docs/protocol.md#idempotency).
func (a roomCall) Replay(q store.Q) (*artifactroute.Answer, *wire.Error) {
	rec, err := a.c.lookupRecord(q, "")
	if rec == nil || err != nil {
		return nil, err
	}
	r := replayOf(rec)
	return &artifactroute.Answer{Status: r.status, Body: r.body, ETag: r.etag}, nil
}

func (a roomCall) Record(q store.Q, ans artifactroute.Answer) error {
	return a.c.record(q, "", answer{status: ans.Status, body: ans.Body, etag: ans.ETag}, "", "")
}

// Pending sets Retry-After on a pending poll's answer: 0 under
// --conformance-probes, so a conformance run polls at once.
func (a roomCall) Pending() {
	secs := a.c.s.RetryAfter
	if a.c.s.Probes {
		secs = 0
	}
	a.c.w.Header().Set(wire.HeaderRetryAfter, strconv.Itoa(secs))
}

// Origin is the scheme and host the request came to.
func (a roomCall) Origin() string {
	if a.c.r.TLS != nil {
		return "https://" + a.c.r.Host
	}
	return "http://" + a.c.r.Host
}

// ExactForm parses the exact-FormRef query and finds its installed Form.
func (a roomCall) ExactForm() (wire.FormRef, *catalog.Form, *wire.Error) {
	_, ref, err := a.c.exactQuery()
	if err != nil {
		return ref, nil, err
	}
	f, err := a.c.s.Engine.Installed(ref, a.c.fs)
	return ref, f, err
}
