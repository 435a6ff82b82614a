package core

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Fingerprint covers method, exact target, the precondition headers and the
// body bytes (docs/protocol.md#idempotency); the probe header is not part of it.
func Fingerprint(method, requestURI string, h http.Header, body []byte) string {
	hash := sha256.New()
	for _, part := range []string{method, requestURI, h.Get(wire.HeaderIfMatch), h.Get(wire.HeaderIfNoneMatch),
		h.Get(wire.HeaderExpectedGeneration)} {
		hash.Write([]byte(part))
		hash.Write([]byte{0})
	}
	hash.Write(body)
	return hex.EncodeToString(hash.Sum(nil))
}

// RecordOwner is whom idempotency records are keyed by: the tenant and
// principal of the request.
func RecordOwner(tenant, principal string, fs *fault.Set) (string, string) {
	if fs.On(fault.IdempotencyHostWide) {
		return "", ""
	}
	if fs.On(fault.IdempotencyTenantWide) {
		return tenant, ""
	}
	return tenant, principal
}

// Replay is what a keyed request does with the record under its key.
type Replay int

const (
	Execute Replay = iota // no record: run the request
	Retire                // the record is retired: drop it, then run the request
	Answer                // replay the record byte for byte
)

// DecideReplay is step 7 of the order of checks. rec is the record under the
// key (nil: none); it retires once older than life or once the incarnation it
// is bound to is gone (boundLive is asked only for a bound record); another
// request under the key is refused.
func DecideReplay(rec *store.Record, fingerprint, key string, now time.Time, life time.Duration, boundLive bool, fs *fault.Set) (Replay, *wire.Error) {
	if rec == nil {
		return Execute, nil
	}
	if now.Sub(time.Unix(rec.CreatedAt, 0)) > life {
		return Retire, nil
	}
	if rec.BoundUID != "" && !boundLive {
		if !fs.On(fault.IdempotencyNoRetire) {
			return Retire, nil
		}
	}
	if rec.Fingerprint != fingerprint {
		return Execute, Invalid("Idempotency-Key %q was already used for another request (different method, target, preconditions or body); use a new key for a new request", key)
	}
	return Answer, nil
}
