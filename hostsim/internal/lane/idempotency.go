package lane

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// fingerprint covers method, exact target, precondition headers and body bytes
// (host-api.md §11.1); the probe header is deliberately not part of it.
func (c *call) fingerprint() string {
	h := sha256.New()
	for _, part := range []string{c.r.Method, c.r.RequestURI, c.r.Header.Get("If-Match"),
		c.r.Header.Get("If-None-Match"), c.r.Header.Get("Takoform-Expected-Generation")} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(c.body)
	return hex.EncodeToString(h.Sum(nil))
}

// lookupRecord is §5.4 step 7: a record to replay, a key-reuse refusal, or nothing.
func (c *call) lookupRecord(q store.Q, space string) (*store.Record, *apiError) {
	if c.faultOn("idempotency.no-replay") {
		return nil, nil
	}
	tenant, principal := c.recordOwner()
	rec, err := store.GetRecord(q, tenant, principal, space, c.key())
	if err != nil {
		return nil, internal(err)
	}
	if rec == nil {
		return nil, nil
	}
	retired := c.s.Now().Sub(time.Unix(rec.CreatedAt, 0)) > c.s.RecordLife
	if !retired && rec.BoundUID != "" {
		live, err := store.UIDLive(q, rec.BoundUID)
		if err != nil {
			return nil, internal(err)
		}
		retired = !live && !c.faultOn("idempotency.no-retire")
	}
	if retired {
		if err := store.DropRecord(q, rec.Tenant, rec.Principal, rec.Space, rec.Key); err != nil {
			return nil, internal(err)
		}
		return nil, nil
	}
	if rec.Fingerprint != c.fingerprint() {
		return nil, invalid("Idempotency-Key %q was already used for another request (different method, target, preconditions or body); use a new key for a new request", c.key())
	}
	return rec, nil
}

// record stores a 2xx answer for replay.
func (c *call) record(q store.Q, space string, status int, body []byte, etag, boundUID, boundOp string) error {
	if body == nil {
		body = []byte{}
	}
	tenant, principal := c.recordOwner()
	return store.PutRecord(q, &store.Record{Tenant: tenant, Principal: principal, Space: space,
		Key: c.key(), Fingerprint: c.fingerprint(), Status: status, ETag: etag, Body: body,
		BoundUID: boundUID, BoundOp: boundOp, CreatedAt: c.s.Now().Unix()})
}

// replay answers a recorded request byte for byte.
func (c *call) replay(rec *store.Record) {
	var body []byte
	if len(rec.Body) > 0 {
		body = rec.Body
	}
	c.send(rec.Status, body, rec.ETag)
}
