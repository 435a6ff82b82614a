package lane

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// lookupRecord is step 7 of the order of checks (docs/protocol.md#idempotency).
func (c *call) lookupRecord(q store.Q, space string) (*store.Record, *wire.Error) {
	if c.fs.On(fault.IdempotencyNoReplay) {
		return nil, nil
	}
	return c.s.Engine.Replay(q, c.keyed(space), c.fs)
}

// record stores a 2xx answer for replay.
func (c *call) record(q store.Q, space string, a answer, boundUID, boundOp string) error {
	return c.s.Engine.Record(q, c.keyed(space), a.status, a.etag, a.body, boundUID, boundOp)
}

// keyed addresses the request's record: the owner and fingerprint are
// decided once per request.
func (c *call) keyed(space string) lifecycle.Key {
	if c.keying == nil {
		t, p := core.RecordOwner(c.who.Tenant, c.who.Principal, c.fs)
		c.keying = &lifecycle.Key{Tenant: t, Principal: p, Key: c.key(),
			Fingerprint: core.Fingerprint(c.r.Method, c.r.RequestURI, c.r.Header, c.body)}
	}
	k := *c.keying
	k.Space = space
	return k
}

// replayOf answers a recorded request byte for byte.
func replayOf(rec *store.Record) answer {
	if rec == nil {
		return answer{}
	}
	a := answer{status: rec.Status, etag: rec.ETag, replay: true}
	if len(rec.Body) > 0 {
		a.body = rec.Body
	}
	return a
}
