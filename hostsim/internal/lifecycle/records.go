package lifecycle

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Key addresses a keyed request's idempotency record (docs/protocol.md#idempotency).
type Key struct {
	Tenant, Principal, Space, Key string // Tenant and Principal as core.RecordOwner decided
	Fingerprint                   string
}

// Replay is step 7 of the order of checks: the record to replay, a key-reuse
// refusal, or nothing (a retired record is dropped, and the request runs).
func (en *Engine) Replay(q store.Q, k Key, fs *fault.Set) (*store.Record, *wire.Error) {
	rec, err := store.GetRecord(q, k.Tenant, k.Principal, k.Space, k.Key)
	if err != nil {
		return nil, core.Internal(err)
	}
	if rec == nil {
		return nil, nil
	}
	live := true
	if rec.BoundUID != "" {
		if live, err = store.UIDLive(q, rec.BoundUID); err != nil {
			return nil, core.Internal(err)
		}
	}
	d, e := core.DecideReplay(rec, k.Fingerprint, k.Key, en.Now(), en.RecordLife, live, fs)
	switch {
	case e != nil:
		return nil, e
	case d == core.Retire:
		if err := store.DropRecord(q, rec.Tenant, rec.Principal, rec.Space, rec.Key); err != nil {
			return nil, core.Internal(err)
		}
	case d == core.Answer:
		return rec, nil
	}
	return nil, nil
}

// Record stores a 2xx answer for replay, bound to the incarnation it left
// live (boundUID) or to its pending operation (boundOp).
func (en *Engine) Record(q store.Q, k Key, status int, etag string, body []byte, boundUID, boundOp string) error {
	if body == nil {
		body = []byte{}
	}
	return store.PutRecord(q, &store.Record{Tenant: k.Tenant, Principal: k.Principal, Space: k.Space,
		Key: k.Key, Fingerprint: k.Fingerprint, Status: status, ETag: etag, Body: body,
		BoundUID: boundUID, BoundOp: boundOp, CreatedAt: en.Now().Unix()})
}
