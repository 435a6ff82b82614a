package lane

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// lookupRecord is step 7 of the order of checks (docs/protocol.md#idempotency):
// a record to replay, a key-reuse refusal, or nothing (a retired record is
// dropped).
func (c *call) lookupRecord(q store.Q, space string) (*store.Record, *wire.Error) {
	if c.fs.On(fault.IdempotencyNoReplay) {
		return nil, nil
	}
	k := c.keyed()
	rec, err := store.GetRecord(q, k.tenant, k.principal, space, c.key())
	if err != nil || rec == nil {
		return nil, errOr(err)
	}
	live := true
	if rec.BoundUID != "" {
		if live, err = store.UIDLive(q, rec.BoundUID); err != nil {
			return nil, core.Internal(err)
		}
	}
	d, e := core.DecideReplay(rec, k.fingerprint, c.key(), c.s.Now(), c.s.RecordLife, live, c.fs)
	switch {
	case e != nil:
		return nil, e
	case d == core.Retire:
		if err := store.DropRecord(q, rec.Tenant, rec.Principal, rec.Space, rec.Key); err != nil {
			return nil, core.Internal(err)
		}
		return nil, nil
	case d == core.Answer:
		return rec, nil
	}
	return nil, nil
}

func errOr(err error) *wire.Error {
	if err == nil {
		return nil
	}
	return core.Internal(err)
}

// record stores a 2xx answer for replay, bound to the incarnation it left
// live (boundUID) or to its pending operation (boundOp).
func (c *call) record(q store.Q, space string, a answer, boundUID, boundOp string) error {
	body := a.body
	if body == nil {
		body = []byte{}
	}
	k := c.keyed()
	return store.PutRecord(q, &store.Record{Tenant: k.tenant, Principal: k.principal, Space: space,
		Key: c.key(), Fingerprint: k.fingerprint, Status: a.status,
		ETag: a.etag, Body: body, BoundUID: boundUID, BoundOp: boundOp, CreatedAt: c.s.Now().Unix()})
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

// keying is how a keyed request's record is addressed and compared.
type keying struct {
	tenant, principal, fingerprint string
}

// keyed decides the record owner and fingerprint once per request.
func (c *call) keyed() *keying {
	if c.keying == nil {
		t, p := core.RecordOwner(c.who.Tenant, c.who.Principal, c.fs)
		c.keying = &keying{tenant: t, principal: p, fingerprint: core.Fingerprint(c.r.Method, c.r.RequestURI, c.r.Header, c.body)}
	}
	return c.keying
}
