package lane

import (
	"context"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// CompleteOperation finishes a pending operation now (admin API): it commits,
// or fails with code when code is not empty. It returns the Operation document.
func (s *Server) CompleteOperation(ctx context.Context, id string, code wire.Code) ([]byte, error) {
	c := &call{s: s, ctx: ctx, id: newID("req_"), w: discardWriter{}, r: &http.Request{}}
	var doc []byte
	err := s.Store.Write(ctx, func(tx store.Q) error {
		op, err := store.GetOperation(tx, id)
		if err != nil {
			return err
		}
		if op == nil {
			return fail(wire.CodeOperationNotFound, "operation %s is unknown", id)
		}
		c.kind, c.name = op.Kind, op.Name
		if !op.Done {
			var forced *apiError
			if code != "" {
				forced = fail(code, "operation %s was failed with %s through the hostsim admin API", id, code)
			}
			if err := c.settle(tx, op, forced); err != nil {
				return err
			}
		}
		doc = op.Doc
		return nil
	})
	c.flushFires()
	if e, ok := err.(*apiError); ok {
		return nil, e
	}
	return doc, err
}

// AdminError renders an error as the lane's envelope (used by the admin API).
func AdminError(err error, requestID string) (int, []byte) {
	e, ok := err.(*apiError)
	if !ok {
		e = invalid("%v", err)
	}
	return e.envelope(requestID)
}

// NewRequestID mints a request id.
func NewRequestID() string { return newID("req_") }

type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}

// Refusal builds an error the admin API answers in the lane's envelope.
func Refusal(code wire.Code, msg string) error { return fail(code, "%s", msg) }
