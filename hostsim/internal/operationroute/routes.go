// Package operationroute answers the two operation routes of the lane: the
// poll, which may settle a due operation, and the cancel
// (docs/protocol.md#operations). The lane accepts operations (a 202 of apply,
// import or delete) and routes these requests here once its prelude passed
// (docs/protocol.md#order); internal/lifecycle settles and cancels them. This
// package never imports the lane: a Call is what it needs from the request.
package operationroute

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Call is what an operation route needs from the lane's request in flight.
type Call interface {
	// Owner is the authenticated tenant and principal (docs/protocol.md#auth).
	Owner() (tenant, principal string)
	// Faults are the request's armed hostsim faults.
	Faults() *fault.Set
	// Param is a path parameter of the route: id.
	Param(name string) string
	// RequireEmptyBody refuses a body on a route that takes none.
	RequireEmptyBody() *wire.Error
	// Write runs fn in one write transaction that also records the request's
	// fault firings (fault.Set.Write); an error comes back as a refusal and
	// nothing is stored, except a refusal made by fault.Answer, answered after
	// the write committed.
	Write(fn func(q store.Q) error) *wire.Error
	// Pending marks the answer as an unsettled operation's: it carries Retry-After.
	Pending()
	// Send writes the answer: a JSON body and an ETag ("" for none).
	Send(status int, body []byte, etag string)
}

// own loads an operation of the caller's tenant and principal.
func own(c Call, q store.Q) (*store.Operation, *wire.Error) {
	id := c.Param("id")
	op, err := store.GetOperation(q, id)
	if err != nil {
		return nil, decide.Internal(err)
	}
	tenant, principal := c.Owner()
	var e *wire.Error
	c.Faults().Decide(func(a *decide.Acts) { e = decide.CheckOperationOwner(op, id, tenant, principal, a) })
	if e != nil {
		return nil, e
	}
	return op, nil
}

// Poll answers GET {api}/operations/{id}; a poll may commit.
func Poll(en *lifecycle.Engine, c Call) *wire.Error {
	fs := c.Faults()
	var doc []byte
	var pending bool
	err := c.Write(func(q store.Q) error {
		op, e := own(c, q)
		if e != nil {
			return e
		}
		wasDone := op.Done
		if !op.Done {
			op.Polls++
			if decide.Due(op) {
				// the commit's database failing commits what it applied and
				// answers the failure: the operation stays pending
				if err := fault.Answer(en.Settle(q, op, nil, fs)); err != nil {
					return err
				}
			} else if err := store.UpdateOperation(q, op); err != nil {
				return err
			}
		}
		doc, pending = op.Doc, !op.Done
		if wasDone {
			if fs.On(fault.OperationUnstable) {
				doc = reencoded(op.Doc)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if pending {
		c.Pending()
	}
	c.Send(http.StatusOK, doc, "")
	return nil
}

// reencoded renders a document afresh, indented: the same JSON value, not
// the same bytes (fault operation.unstable).
func reencoded(doc []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, doc, "", "  ") != nil {
		return doc
	}
	return out.Bytes()
}

// Cancel answers POST {api}/operations/{id}/cancel.
func Cancel(en *lifecycle.Engine, c Call) *wire.Error {
	if err := c.RequireEmptyBody(); err != nil {
		return err
	}
	fs := c.Faults()
	var doc []byte
	err := c.Write(func(q store.Q) error {
		op, e := own(c, q)
		if e != nil {
			return e
		}
		if !op.Done {
			if fs.On(fault.OperationUncancellable) {
				// as on a poll: the settle's database failing commits what it
				// applied and answers the failure, and nothing is cancelled
				if err := fault.Answer(en.Settle(q, op, nil, fs)); err != nil {
					return err
				}
			}
		}
		if !op.Done {
			if err := en.Cancel(q, op); err != nil {
				return err
			}
		}
		doc = op.Doc
		return nil
	})
	if err != nil {
		return err
	}
	c.Send(http.StatusOK, doc, "")
	return nil
}
