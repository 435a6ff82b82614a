package lane

// The lane's side of the Form transitions (transitions.md). The algorithm,
// ledger and backend live in internal/transition; this file only hands the
// two form-transition routes over to it (Exchange), answers claims in
// rendering (the Reconciling condition) and refuses lifecycle mutations of a
// claimed resource.

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Transitions is the Form-transition service the lane routes to.
type Transitions interface {
	// Post answers POST …/{name}/form-transitions.
	Post(x *Exchange)
	// Readback answers GET …/{name}/form-transitions/{operationId}.
	Readback(x *Exchange)
	// Claim returns the transition claim held on the resource uid, or nil.
	Claim(q store.Q, uid string) (*Claim, error)
	// State is the transition ledger and the backend for /_sim/state.
	State(q store.Q, now time.Time) (*TransitionState, error)
}

// TransitionState is what /_sim/state shows of the transitions (hostsim.md §7).
type TransitionState struct {
	Transitions   any // the operation ledger, one entry per operation
	Backend       any // the backend's native objects
	BackendLedger any // the backend's own ledger
}

// Claim is a Form-transition claim held on a resource.
type Claim struct {
	OperationID  string
	Since        string // RFC 3339, UTC, whole seconds
	ReadbackPath string // the operation's reconcilePath
}

// Exchange is one form-transition request after the lane's prelude
// (authentication, probe, routing, request faults, segment grammars and the
// Idempotency-Key syntax on the POST) passed.
type Exchange struct{ c *call }

func (c *call) formTransition() *apiError {
	if c.s.Transitions == nil {
		return notFound("this host does not serve Form transitions")
	}
	c.s.Transitions.Post(&Exchange{c})
	return nil
}

func (c *call) formTransitionReadback() *apiError {
	if c.s.Transitions == nil {
		return notFound("this host does not serve Form transitions")
	}
	c.s.Transitions.Readback(&Exchange{c})
	return nil
}

// Context is the request's context.
func (x *Exchange) Context() context.Context { return x.c.ctx }

// Tenant and Principal come from the authenticated credential.
func (x *Exchange) Tenant() string    { return x.c.who.Tenant }
func (x *Exchange) Principal() string { return x.c.who.Principal }

// Param is a decoded path parameter (group, version, kind, name, txid).
func (x *Exchange) Param(name string) string { return x.c.params[name] }

// Request is the HTTP request (headers, raw query).
func (x *Exchange) Request() *http.Request { return x.c.r }

// Body is the request body as read by the lane (GET: nil).
func (x *Exchange) Body() []byte { return x.c.body }

// Probe is the honoured Takoform-Conformance-Probe value, or "".
func (x *Exchange) Probe() string { return x.c.probe }

// RequestID is this answer's requestId.
func (x *Exchange) RequestID() string { return x.c.id }

// Now is the host's clock.
func (x *Exchange) Now() time.Time { return x.c.s.Now() }

// Catalog is the catalog this host serves from.
func (x *Exchange) Catalog() *catalog.Catalog { return x.c.s.Host.Cat }

// Host is the resolved profile (what is installed, what the host accepts).
func (x *Exchange) Host() *profile.Host { return x.c.s.Host }

// Store is the host's database.
func (x *Exchange) Store() *store.Store { return x.c.s.Store }

// Send writes a JSON answer (etag "" = none).
func (x *Exchange) Send(status int, body []byte, etag string) { x.c.send(status, body, etag) }

// SendError writes an error envelope; its requestId is this answer's.
func (x *Exchange) SendError(e *wire.Error) {
	cp := *e
	cp.RequestID = x.c.id
	body, _ := json.Marshal(wire.Envelope{Error: &cp})
	x.c.w.Header().Del("ETag")
	x.c.send(cp.Code.Status(), body, "")
}

// Render is the served representation of r (outputs, conditions, output faults).
func (x *Exchange) Render(q store.Q, r *store.Resource) ([]byte, error) {
	rep, err := x.c.render(q, r)
	if err != nil {
		return nil, err
	}
	return marshal(rep), nil
}

// ArmedAll returns every armed fault named name scoped to this request's kind and name.
func (x *Exchange) ArmedAll(name string) []*fault.Armed {
	if x.c.s.Armory == nil {
		return nil
	}
	list, err := x.c.s.Armory.List(x.c.s.Store.DB())
	if err != nil {
		return nil
	}
	var out []*fault.Armed
	for i := range list {
		if list[i].Spec.Fault == name && list[i].Spec.Matches(x.c.kind, x.c.name) {
			out = append(out, &list[i])
		}
	}
	return out
}

// FireIn counts one firing of f inside the caller's transaction and journals it.
// Call FaultsChanged once that transaction is over.
func (x *Exchange) FireIn(q store.Q, f *fault.Armed) error {
	if err := x.c.s.Armory.Fire(q, f); err != nil {
		return err
	}
	return Append(q, x.c.s.Now(), "fault", map[string]any{"fault": f.Spec, "requestId": x.c.id,
		"kind": x.c.kind, "resource": x.c.name})
}

// Lapse reports (and records the firing of) an armed rule fault scoped to
// this request: the transition service then skips that one rule.
func (x *Exchange) Lapse(name string) bool { return x.c.faultOn(name) }

// FaultsChanged drops the cached fault table after firings were committed.
func (x *Exchange) FaultsChanged() {
	if x.c.s.Armory != nil {
		x.c.s.Armory.Invalidate()
	}
}

// Drop closes the connection without an answer (the client sees a dropped connection).
func (x *Exchange) Drop() {
	x.c.status = 0
	if hj, ok := x.c.w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tc, ok := conn.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// claimRefusal is the 409 of a lifecycle mutation or observe of a claimed
// resource (transitions.md §5), or nil when no claim is held.
func (c *call) claimRefusal(q store.Q, r *store.Resource) *apiError {
	if c.s.Transitions == nil || r == nil {
		return nil
	}
	cl, err := c.s.Transitions.Claim(q, r.UID)
	if err != nil {
		return internal(err)
	}
	if cl == nil || c.faultOn("transition.no-claim") {
		return nil
	}
	no, what := false, "mutation"
	if c.rt != nil {
		what = c.rt.name
	}
	e := fail(wire.CodeResourceBusy, "%s is held by Form transition %s; no %s is accepted until it resolves. Read GET %s for its outcome (re-running tofu apply reconciles it)",
		describe(r), cl.OperationID, what, cl.ReadbackPath)
	e.hostCode, e.retryable = "form_transition_in_progress", &no
	return e
}

// claimCondition is the Reconciling condition of a claimed resource, or nil.
func (c *call) claimCondition(q store.Q, r *store.Resource) (*condition, error) {
	if c.s.Transitions == nil {
		return nil, nil
	}
	cl, err := c.s.Transitions.Claim(q, r.UID)
	if err != nil || cl == nil {
		return nil, err
	}
	return &condition{Type: "Reconciling", Status: "True", Reason: "Reconciling", LastTransitionTime: cl.Since,
		HostReason: "form-transition", Message: "Form transition " + cl.OperationID + " holds this resource; its outcome is at " + cl.ReadbackPath}, nil
}

// Relations resolves the references of spec under f for the caller's resource
// (space, name) exactly as apply does (host-api.md §14.3) and returns the pins
// a commit records.
func (x *Exchange) Relations(q store.Q, f *catalog.Form, space, name string, spec map[string]any) ([]store.Pin, *wire.Error) {
	m := &mutation{Tenant: x.c.who.Tenant, Principal: x.c.who.Principal, Ref: f.Ref, Space: space, Name: name, Spec: spec}
	pins, e := x.c.resolveRelations(q, f, m, &gated{form: f, spec: spec})
	if e != nil {
		w := wire.NewError(e.code, e.msg)
		w.HostCode = e.hostCode
		if e.field != "" {
			w.Details, _ = json.Marshal(map[string]string{"field": e.field})
		}
		return nil, w
	}
	return pins, nil
}

// Recompute runs the one bounded derived-rendering pass of host-api.md §14.6 after a
// committed transition moved r to another exact ref: every source pinning r re-renders
// (its pin now records the old ref: ExternalChange) and moves its revision, never its generation.
func (x *Exchange) Recompute(q store.Q, r *store.Resource) error {
	return x.c.recompute(q, r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name, r.UID)
}
