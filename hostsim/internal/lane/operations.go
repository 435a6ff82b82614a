package lane

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// async decides whether a mutation answers 202 (docs/protocol.md#operations)
// and after how many polls its operation settles (< 0: only through the
// admin API): the unfinished-operation fault, the probe, or a profile-async kind.
func (c *call) async(ref wire.FormRef) (bool, int64) {
	if c.fs.On(fault.ApplyAcceptUnfinished) {
		return true, -1
	}
	if c.probe == "async" {
		return true, 2
	}
	f, ok := c.s.Host.Form(ref)
	if !ok {
		return false, 0
	}
	return c.s.Host.Async(f)
}

// ownOperation loads an operation of the caller's tenant and principal.
func (c *call) ownOperation(q store.Q) (*store.Operation, *wire.Error) {
	id := c.params["id"]
	op, err := store.GetOperation(q, id)
	if err != nil {
		return nil, core.Internal(err)
	}
	if e := core.CheckOperationOwner(op, id, c.who.Tenant, c.who.Principal, c.fs); e != nil {
		return nil, e
	}
	return op, nil
}

// operation answers GET {api}/operations/{id}; a poll may commit.
func operation(c *call) *wire.Error {
	var doc []byte
	var pending bool
	err := c.write(func(q store.Q) error {
		op, e := c.ownOperation(q)
		if e != nil {
			return e
		}
		wasDone := op.Done
		if !op.Done {
			op.Polls++
			if core.Due(op) {
				if err := c.s.Engine.Settle(q, op, nil, c.fs); err != nil {
					return err
				}
			} else if err := store.UpdateOperation(q, op); err != nil {
				return err
			}
		}
		doc, pending = op.Doc, !op.Done
		if wasDone {
			if c.fs.On(fault.OperationUnstable) {
				doc = reencoded(op.Doc)
			}
		}
		return nil
	})
	if err != nil {
		return asRefusal(err)
	}
	if pending {
		c.w.Header().Set(wire.HeaderRetryAfter, strconv.Itoa(c.retryAfter()))
	}
	c.send(http.StatusOK, doc, "")
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

func (c *call) retryAfter() int {
	if c.s.Probes {
		return 0
	}
	return c.s.RetryAfter
}

// cancel answers POST {api}/operations/{id}/cancel.
func cancel(c *call) *wire.Error {
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	var doc []byte
	err := c.write(func(q store.Q) error {
		op, e := c.ownOperation(q)
		if e != nil {
			return e
		}
		if !op.Done {
			if c.fs.On(fault.OperationUncancellable) {
				if err := c.s.Engine.Settle(q, op, nil, c.fs); err != nil {
					return err
				}
			}
		}
		if !op.Done {
			if err := c.s.Engine.Cancel(q, op); err != nil {
				return err
			}
		}
		doc = op.Doc
		return nil
	})
	if err != nil {
		return asRefusal(err)
	}
	c.send(http.StatusOK, doc, "")
	return nil
}
