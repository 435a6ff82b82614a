// Package artifactroute answers the six artifact routes of the lane (upload
// start, blob PUT, commit, abandon, manifest read, blob HEAD;
// docs/protocol.md#artifacts) over the flow of internal/artifact. The lane
// routes a request here once its prelude passed (docs/protocol.md#order) and
// hands over a Call, the few things these routes need from the request in
// flight; this package never imports the lane.
//
// Every step that writes runs inside one write transaction, so a refusal
// stores nothing. Upload start, blob PUT and commit that succeed count as
// uploads; replays and refusals do not (docs/decisions.md: `uploads` counter).
package artifactroute

import (
	"io"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Call is what an artifact route needs from the lane's request in flight.
type Call interface {
	// Caller is the authenticated tenant and principal, with the request's
	// armed faults (docs/protocol.md#auth).
	Caller() artifact.Caller
	// Param is a path parameter of the route: uploadId, sha256 or manifestDigest.
	Param(name string) string
	// Body is the JSON body the prelude read (at most 8 MiB).
	Body() []byte
	// Stream is the raw body of the blob PUT, which the prelude left unread.
	Stream() io.Reader
	// RequireEmptyBody refuses a body on a route that takes none.
	RequireEmptyBody() *wire.Error
	// BundleLimits are the ceilings an upload, which names no Form, is held to
	// for its manifest kind (docs/protocol.md#support).
	BundleLimits() artifact.Limits
	// Read runs fn in a read transaction; an error comes back as a refusal.
	Read(fn func(q store.Q) error) *wire.Error
	// Write runs fn in one write transaction that also records the request's
	// fault firings; an error comes back as a refusal and nothing is stored.
	Write(fn func(q store.Q) error) *wire.Error
	// Replay is the answer recorded for an earlier identical keyed request,
	// or nil (docs/protocol.md#idempotency); artifact routes key in space "".
	Replay(q store.Q) (*Answer, *wire.Error)
	// Record stores a 2xx answer for replay under space "".
	Record(q store.Q, a Answer) error
	// Send writes the answer: a JSON body (nil for none) and an ETag ("" for none).
	Send(status int, body []byte, etag string)
}

// Answer is a 2xx answer of an artifact route.
type Answer struct {
	Status int
	Body   []byte
	ETag   string
}

// keyed runs a keyed artifact step: the replay of an earlier identical
// request, or step inside the write transaction with its answer recorded.
func keyed(c Call, step func(q store.Q) (Answer, error)) *wire.Error {
	var a Answer
	werr := c.Write(func(q store.Q) error {
		rec, e := c.Replay(q)
		if e != nil {
			return e
		}
		if rec != nil {
			a = *rec
			return nil
		}
		var err error
		if a, err = step(q); err != nil {
			return related.Refusal(err)
		}
		return c.Record(q, a)
	})
	if werr != nil {
		return werr
	}
	c.Send(a.Status, a.Body, a.ETag)
	return nil
}
