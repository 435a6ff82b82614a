// Package idempotency holds the replay of keyed requests in one place
// (docs/protocol.md#idempotency): the fingerprint of a request, whom its
// record is keyed by, the lookup of step 7 of the order of checks (replay,
// key reuse, retire, or go on) and the record of a 2xx answer. The store
// keeps the records (store.Record); this package decides what they mean. Its
// faults (idempotency.no-replay, no-retire, tenant-wide, host-wide) are asked
// on the request's fault.Set inside the request's write transaction.
package idempotency

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Key addresses a keyed request's record: (tenant, principal, space, key)
// as Owner decided them, and the request's fingerprint.
type Key struct {
	Tenant, Principal, Space, Key string
	Fingerprint                   string
}

// KeyOf is the key of a request under Idempotency-Key key, in space "" (In
// names another): its owner and its fingerprint.
func KeyOf(tenant, principal, key, method, target string, h http.Header, body []byte, fs *fault.Set) Key {
	t, p := Owner(tenant, principal, fs)
	return Key{Tenant: t, Principal: p, Key: key, Fingerprint: Fingerprint(method, target, h, body)}
}

// In is k in space: metadata.space (apply, import), the query's space
// (observe, delete) or "" (operations, artifacts).
func (k Key) In(space string) Key {
	k.Space = space
	return k
}

// Fingerprint covers method, exact target, the three precondition headers
// (whether or not the route reads them) and the body bytes; the probe header
// is not part of it.
func Fingerprint(method, requestURI string, h http.Header, body []byte) string {
	hash := sha256.New()
	for _, part := range [...]string{method, requestURI, h.Get(wire.HeaderIfMatch), h.Get(wire.HeaderIfNoneMatch),
		h.Get(wire.HeaderExpectedGeneration)} {
		hash.Write([]byte(part))
		hash.Write([]byte{0})
	}
	hash.Write(body)
	return hex.EncodeToString(hash.Sum(nil))
}

// Owner is whom records are keyed by: the tenant and principal of the request.
func Owner(tenant, principal string, fs *fault.Set) (string, string) {
	if fs.On(fault.IdempotencyHostWide) {
		return "", ""
	}
	if fs.On(fault.IdempotencyTenantWide) {
		return tenant, ""
	}
	return tenant, principal
}

// Records are the idempotency records of one host: how long one lives
// (hostsim: 24 hours) and the clock it is judged by.
type Records struct {
	Life time.Duration
	Now  func() time.Time
}

// Lookup is step 7 of the order of checks, in the request's write
// transaction q: the record to replay, a refusal of a key used for another
// request, or nil, nil (run the request; a retired record is dropped first).
func (r *Records) Lookup(q store.Q, k Key, fs *fault.Set) (*store.Record, *wire.Error) {
	if fs.On(fault.IdempotencyNoReplay) {
		return nil, nil
	}
	rec, err := store.GetRecord(q, k.Tenant, k.Principal, k.Space, k.Key)
	if err != nil || rec == nil {
		return nil, internal(err)
	}
	live := true
	if rec.BoundUID != "" {
		if live, err = store.UIDLive(q, rec.BoundUID); err != nil {
			return nil, decide.Internal(err)
		}
	}
	v, e := judge(rec, k, r.Now(), r.Life, live, fs)
	switch {
	case e != nil:
		return nil, e
	case v == retire:
		if err := store.DropRecord(q, rec.Tenant, rec.Principal, rec.Space, rec.Key); err != nil {
			return nil, decide.Internal(err)
		}
	case v == replay:
		return rec, nil
	}
	return nil, nil
}

// Put records a 2xx answer for replay in q, bound to the incarnation it left
// live (boundUID), to its pending operation (boundOp), or to nothing.
func (r *Records) Put(q store.Q, k Key, status int, etag string, body []byte, boundUID, boundOp string) error {
	if body == nil {
		body = []byte{}
	}
	return store.PutRecord(q, &store.Record{Tenant: k.Tenant, Principal: k.Principal, Space: k.Space,
		Key: k.Key, Fingerprint: k.Fingerprint, Status: status, ETag: etag, Body: body,
		BoundUID: boundUID, BoundOp: boundOp, CreatedAt: r.Now().Unix()})
}

func internal(err error) *wire.Error {
	if err == nil {
		return nil
	}
	return decide.Internal(err)
}

// verdict is what a keyed request does with the record under its key.
type verdict int

const (
	run    verdict = iota // no record: run the request
	retire                // the record is retired: drop it, then run the request
	replay                // replay the record byte for byte
)

// judge weighs the record under k's key: it retires once older than life or
// once the incarnation it is bound to is gone (boundLive is asked only for a
// bound record); another request under the key is refused.
func judge(rec *store.Record, k Key, now time.Time, life time.Duration, boundLive bool, fs *fault.Set) (verdict, *wire.Error) {
	if rec == nil {
		return run, nil
	}
	if now.Sub(time.Unix(rec.CreatedAt, 0)) > life {
		return retire, nil
	}
	if rec.BoundUID != "" && !boundLive {
		if !fs.On(fault.IdempotencyNoRetire) {
			return retire, nil
		}
	}
	if rec.Fingerprint != k.Fingerprint {
		return run, decide.Invalid("Idempotency-Key %q was already used for another request (different method, target, preconditions or body); use a new key for a new request", k.Key)
	}
	return replay, nil
}
