package lane

import (
	"net"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// answer is a 2xx a keyed request decided inside its transaction.
type answer struct {
	status int
	body   []byte
	etag   string
	replay bool // the recorded answer of an earlier identical request
	drop   bool // response.drop-after-commit: close the connection instead
}

// mutate runs the idempotency lookup, then decides and commits (or accepts)
// an apply or import in one write transaction: parse, load, decide, store,
// render. early is a refusal from the checks that need no stored state,
// answered only when no record replays. A migration application runs its
// files right before its commit; when one fails, what the run changed (the
// journal, the re-rendering of the database's other applications) commits
// without the resource and the failure is answered (docs/protocol.md#migrations).
func (c *call) mutate(space string, m *decide.Mutation, g *decide.Gated, early *wire.Error) *wire.Error {
	release, busy := exclusive(c)
	if busy {
		return decide.Refuse(wire.CodeResourceBusy, "another mutation is in flight on this host (fault mutation.exclusive); retry %s %q later", m.Ref.Kind, m.Name)
	}
	defer release()
	var a answer
	err := c.write(func(q store.Q) error {
		if rec, e := c.lookupRecord(q, space); e != nil || rec != nil {
			a = c.replay(rec)
			return errOrNil(e)
		}
		if early != nil {
			return early
		}
		o, e := c.s.Engine.Decide(q, m, g, false, c.rt.name, c.fs)
		if e != nil {
			return e
		}
		if async, complete := c.async(m.Ref); async {
			if !o.Created {
				m.TargetUID = o.Next.UID
			}
			body, id, err := c.s.Engine.Accept(q, lifecycle.Accepted{Tenant: c.who.Tenant, Principal: c.who.Principal,
				Action: m.Action, Kind: m.Ref.Kind, Name: m.Name, Request: m, TargetUID: m.TargetUID, CompleteAfter: complete})
			if err != nil {
				return err
			}
			a = answer{status: http.StatusAccepted, body: body}
			return c.record(q, space, a, "", id)
		}
		if err := fault.Answer(c.s.Engine.Migrate(q, o, c.fs)); err != nil {
			return err
		}
		rep, err := c.s.Engine.Commit(q, o, c.fs)
		if err != nil {
			return err
		}
		a = answer{status: http.StatusOK, body: rep, etag: render.ETag(o.Next, c.fs)}
		if o.Created {
			a.status = http.StatusCreated
		}
		if err := c.record(q, space, a, o.Next.UID, ""); err != nil {
			return err
		}
		a.drop = c.dropsAfterCommit()
		return nil
	})
	if err != nil {
		return asRefusal(err)
	}
	c.reply(a)
	return nil
}

// errOrNil keeps a nil refusal a nil error.
func errOrNil(e *wire.Error) error {
	if e == nil {
		return nil
	}
	return e
}

// reply writes a decided answer (or drops the connection).
func (c *call) reply(a answer) {
	if a.drop && c.drop() {
		return
	}
	c.send(a.status, a.body, a.etag)
}

// dropsAfterCommit is asked once the mutation's answer is recorded: the
// connection will close without an answer (the client's resend of the same
// bytes gets the replay). Only a hijackable connection can be dropped.
func (c *call) dropsAfterCommit() bool {
	if !hijackable(c.w) {
		return false
	}
	return c.fs.On(fault.ResponseDropAfterCommit)
}

// dropsReplay is asked when a keyed resend found its recorded answer: the
// connection closes without the replay either. After response.drop-after-commit,
// a client that resends once never hears how its write ended.
func (c *call) dropsReplay() bool {
	if !hijackable(c.w) {
		return false
	}
	return c.fs.On(fault.ResponseDropReplay)
}

// hijackable reports whether the writer under w's wrappers can hand over its
// connection: a wrapper (echo's Response) has a Hijack method whatever it wraps,
// and asking it would consume the fault for a drop that then cannot happen.
func hijackable(w http.ResponseWriter) bool {
	_, ok := innermost(w).(http.Hijacker)
	return ok
}

// drop takes the connection from the answer, which is never written; false when
// it cannot. ServeHTTP closes it (closeDropped) after journaling the request: a
// client that resends at once must find the dropped request in the journal
// before its resend (a test saw the resend journaled first on a loaded machine).
func (c *call) drop() bool {
	hj, ok := c.w.(http.Hijacker)
	if !ok {
		return false
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return false
	}
	c.dropped = conn // c.status stays 0: drop comes before any send, so the journal tells no status
	return true
}

// closeDropped closes the connection drop took, resetting it: the client sees
// the connection end with no answer.
func (c *call) closeDropped() {
	if c.dropped == nil {
		return
	}
	if tc, ok := c.dropped.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = c.dropped.Close()
}

// exclusive is the fault mutation.exclusive: while it is armed a mutation
// holds the host for exclusiveHold, and one arriving meanwhile is refused
// (busy), which is where it fires.
func exclusive(c *call) (release func(), busy bool) {
	if !c.fs.Armed(fault.MutationExclusive) {
		return func() {}, false
	}
	release = func() { c.s.inflight.Add(-1) }
	if c.s.inflight.Add(1) > 1 {
		release()
		if c.fs.On(fault.MutationExclusive) {
			return nil, true
		}
		return func() {}, false
	}
	time.Sleep(exclusiveHold)
	return release, false
}

const exclusiveHold = 500 * time.Millisecond

// httpAbort aborts a handler without an answer (net/http closes the connection).
var httpAbort = http.ErrAbortHandler
