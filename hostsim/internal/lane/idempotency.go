package lane

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/idempotency"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// lookupRecord is step 7 of the order of checks (docs/protocol.md#idempotency).
func (c *call) lookupRecord(q store.Q, space string) (*store.Record, *wire.Error) {
	return c.s.Records.Lookup(q, c.keyed(space), c.fs)
}

// record stores a 2xx answer for replay.
func (c *call) record(q store.Q, space string, a answer, boundUID, boundOp string) error {
	return c.s.Records.Put(q, c.keyed(space), a.status, a.etag, a.body, boundUID, boundOp)
}

// keyed addresses the request's record: the owner and fingerprint are
// decided once per request.
func (c *call) keyed(space string) idempotency.Key {
	if c.keying == nil {
		k := idempotency.KeyOf(c.who.Tenant, c.who.Principal, c.key(), c.r.Method, c.r.RequestURI, c.r.Header, c.body, c.fs)
		c.keying = &k
	}
	return c.keying.In(space)
}

// replay answers a keyed resend with its recorded answer (nil: none), which
// response.drop-replay may drop.
func (c *call) replay(rec *store.Record) answer {
	a := replayOf(rec)
	if rec != nil {
		a.drop = c.dropsReplay()
	}
	return a
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
