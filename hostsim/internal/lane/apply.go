package lane

import (
	"net"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// apply answers PUT {api}/resources/{group}/{version}/{kind}/{name}.
func (c *call) apply() *apiError {
	pre, err := c.readPreconditions()
	if err != nil {
		return err
	}
	var d applyDoc
	if err := c.decodeBody(&d); err != nil {
		return err
	}
	in, err := envelopeOf(d.APIVersion, d.Kind, d.Form, d.Metadata, d.Spec)
	if err != nil {
		return err
	}
	if d.Review == nil || !wire.ValidDigest(d.Review.PrepareDigest) {
		return invalid("/review/prepareDigest must be the sha256: digest prepare returned")
	}
	if d.ExpectedUID != nil && !validUID(*d.ExpectedUID) {
		return invalid("/expectedUid %q is not a uid", *d.ExpectedUID)
	}
	var bodyFence int64
	if d.ExpectedGeneration != nil {
		n, ok := parseCanonical(*d.ExpectedGeneration)
		if !ok {
			return invalid("/expectedGeneration %q is not a canonical decimal 1..9223372036854775807", *d.ExpectedGeneration)
		}
		bodyFence = n
	}
	m, early := c.stateless(in, pre, bodyFence, "/expectedGeneration")
	if m != nil {
		m.Action, m.ExpectedUID, m.PrepareDigest = "apply", d.ExpectedUID, d.Review.PrepareDigest
	}
	return c.mutate(in.space, m, early)
}

// stateless runs §5.4 steps 8–11; its refusal is held until the idempotency
// lookup (step 7) has had its say.
func (c *call) stateless(in *core, pre preconditions, bodyFence int64, bodyFenceName string) (*mutation, *apiError) {
	group := c.params["group"] + "/" + c.params["version"]
	if in.apiVersion != group || in.kind != c.params["kind"] || in.name != c.params["name"] {
		return nil, invalid("the body names %s %s %q but the path names %s %s %q; they must agree",
			in.apiVersion, in.kind, in.name, group, c.params["kind"], c.params["name"])
	}
	f, err := c.installed(in.ref)
	if err != nil {
		return nil, err
	}
	if err := c.grammars(in); err != nil {
		return nil, err
	}
	if _, err := gateOrRefuse(f, in.spec); err != nil && !(c.rt.name == "import" && c.faultOn("import.unchecked")) {
		return nil, err
	}
	fence := pre.fence
	if bodyFence != 0 {
		if fence != 0 && fence != bodyFence && !c.faultOn("fence.ignore") {
			return nil, invalid("Takoform-Expected-Generation %d and %s %d disagree; send one fence", fence, bodyFenceName, bodyFence)
		}
		fence = bodyFence
	}
	switch {
	case pre.ifNoneMatch && (fence != 0 || pre.ifMatch != 0):
		return nil, invalid("If-None-Match: * (create intent) cannot be combined with a generation fence or If-Match")
	case !pre.ifNoneMatch && fence == 0:
		return nil, invalid("send If-None-Match: * to create, or Takoform-Expected-Generation to change an existing resource")
	}
	return &mutation{Tenant: c.who.Tenant, Principal: c.who.Principal, Ref: in.ref, Space: in.space, Name: in.name,
		Spec: in.spec, IfNoneMatch: pre.ifNoneMatch, Fence: fence, IfMatch: pre.ifMatch}, nil
}

// mutate runs the idempotency lookup, then decides and commits (or accepts) the
// mutation in one serialized transaction.
func (c *call) mutate(space string, m *mutation, early *apiError) *apiError {
	release, busy := c.exclusive()
	if busy {
		return fail(wire.CodeResourceBusy, "another mutation is in flight on this host (fault mutation.exclusive); retry %s %q later", m.Ref.Kind, m.Name)
	}
	defer release()
	var rec *store.Record
	var status int
	var body []byte
	var tag string
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		r, e := c.lookupRecord(tx, space)
		if e != nil {
			return e
		}
		if r != nil {
			rec = r
			return nil
		}
		if early != nil {
			return early
		}
		o, e := c.decide(tx, m, false)
		if e != nil {
			return e
		}
		if c.isAsync(m.Ref) {
			if o.next != nil && !o.created {
				m.TargetUID = o.next.UID
			}
			status, body = http.StatusAccepted, c.accept(tx, m.Action, m.Ref.Kind, m.Name, m, m.TargetUID)
			return c.record(tx, space, status, body, "", "", opIDOf(body))
		}
		if err := c.commitOutcome(tx, o); err != nil {
			return err
		}
		rep, e := c.render(tx, o.next)
		if e != nil {
			return e
		}
		status, body, tag = http.StatusOK, marshal(rep), c.etag(o.next)
		if o.created {
			status = http.StatusCreated
		}
		return c.record(tx, space, status, body, tag, o.next.UID, "")
	})
	if werr != nil {
		return asAPI(werr)
	}
	if rec != nil {
		c.replay(rec)
		return nil
	}
	if status != http.StatusAccepted && c.dropAfterCommit() {
		return nil
	}
	c.send(status, body, tag)
	return nil
}

// dropAfterCommit fires response.drop-after-commit: the connection closes with no answer.
func (c *call) dropAfterCommit() bool {
	f := c.armed("response.drop-after-commit", c.kind, c.name)
	if f == nil {
		return false
	}
	hj, ok := c.w.(http.Hijacker)
	if !ok {
		return false
	}
	c.fired(f)
	c.flushFires()
	conn, _, err := hj.Hijack()
	if err != nil {
		return false
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
	c.status = 0
	return true
}
