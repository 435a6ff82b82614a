package lane

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/core"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/store"
)

const opAPIVersion = "operations.takoform.com/v1alpha1"

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

// accept records a pending Operation settling after complete polls and
// returns the 202 body.
func (c *call) accept(q store.Q, action, kind, name string, request any, targetUID string, complete int64) ([]byte, error) {
	id := c.s.mint("op_")
	doc := opDoc(id, targetUID, "Accepted", nil, nil)
	req, _ := json.Marshal(request)
	if err := store.InsertOperation(q, &store.Operation{ID: id, Tenant: c.who.Tenant, Principal: c.who.Principal,
		Action: action, Kind: kind, Name: name, Request: req, TargetUID: targetUID, CompleteAfter: complete,
		Doc: doc, CreatedAt: c.s.Now().Unix()}); err != nil {
		return nil, err
	}
	if err := journal.Append(q, c.s.Now(), "operation-accepted", map[string]any{"id": id, "action": action, "kind": kind, "name": name}); err != nil {
		return nil, err
	}
	return marshal(map[string]json.RawMessage{"operation": doc}), nil
}

func opIDOf(body []byte) string {
	var v struct {
		Operation struct {
			ID string `json:"id"`
		} `json:"operation"`
	}
	_ = json.Unmarshal(body, &v)
	return v.Operation.ID
}

// opDoc renders an Operation document.
func opDoc(id, uid, phase string, result any, opErr *wire.Error) []byte {
	doc := map[string]any{"apiVersion": opAPIVersion, "kind": "Operation", "id": id,
		"done": phase != "Accepted", "metadata": map[string]string{"phase": phase}}
	if uid != "" {
		doc["target"] = map[string]string{"uid": uid}
	}
	if result != nil {
		doc["result"] = result
	}
	if opErr != nil {
		e := map[string]any{"code": opErr.Code, "message": opErr.Message, "retryable": opErr.Retryable}
		if opErr.HostCode != "" {
			e["hostCode"] = opErr.HostCode
		}
		doc["error"] = e
	}
	return marshal(doc)
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
				if err := c.settle(q, op, nil); err != nil {
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
				if err := c.settle(q, op, nil); err != nil {
					return err
				}
			}
		}
		if !op.Done {
			ce := core.Refuse(wire.CodeOperationCancelled, "operation %s was cancelled before it committed; nothing was changed", op.ID)
			op.Done, op.Doc = true, opDoc(op.ID, op.TargetUID, "Cancelled", nil, ce)
			if err := store.UpdateOperation(q, op); err != nil {
				return err
			}
			if err := store.RebindOperationRecords(q, op.ID, ""); err != nil {
				return err
			}
			if err := journal.Append(q, c.s.Now(), "operation-cancelled", map[string]string{"id": op.ID}); err != nil {
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

// settle commits (or fails) a pending operation in q: the accepted mutation
// is decided again against the store as it is now. forced is an error the
// admin API asked for instead of committing.
func (c *call) settle(q store.Q, op *store.Operation, forced *wire.Error) error {
	var result any
	uid := op.TargetUID
	failure := forced
	switch {
	case forced != nil:
	case op.Action == "delete":
		var d core.Deletion
		_ = json.Unmarshal(op.Request, &d)
		cur, e := c.decideDelete(q, &d, true)
		if e != nil {
			failure = e
			break
		}
		if err := c.commitDelete(q, cur); err != nil {
			return err
		}
		result = map[string]bool{"deleted": true}
	default:
		var m core.Mutation
		_ = json.Unmarshal(op.Request, &m)
		o, e := c.decide(q, &m, nil, true)
		if e != nil {
			failure = e
			break
		}
		rep, err := c.commit(q, o)
		if err != nil {
			return err
		}
		uid = o.next.UID
		result = map[string]json.RawMessage{"resource": rep}
	}
	op.Done = true
	bound := ""
	if failure != nil {
		op.Doc = opDoc(op.ID, op.TargetUID, "Failed", nil, failure)
	} else {
		op.TargetUID = uid
		op.Doc = opDoc(op.ID, uid, "Succeeded", result, nil)
		if op.Action != "delete" {
			bound = uid
		}
	}
	if err := store.UpdateOperation(q, op); err != nil {
		return err
	}
	if err := store.RebindOperationRecords(q, op.ID, bound); err != nil {
		return err
	}
	return journal.Append(q, c.s.Now(), "operation-settled", map[string]any{"id": op.ID, "failed": failure != nil})
}

// CompleteOperation finishes a pending operation now (admin API): it commits,
// or fails with code when code is not empty. It returns the Operation document.
func (s *Server) CompleteOperation(ctx context.Context, id string, code wire.Code) ([]byte, error) {
	c := &call{s: s, ctx: ctx, id: newID("req_"), w: discardWriter{}, r: &http.Request{}}
	c.fs = s.Armory.Request(c.id, "", "")
	var doc []byte
	err := c.write(func(q store.Q) error {
		op, err := store.GetOperation(q, id)
		if err != nil {
			return err
		}
		if op == nil {
			return core.Refuse(wire.CodeOperationNotFound, "operation %s is unknown", id)
		}
		c.fs.Scope(op.Kind, op.Name)
		if !op.Done {
			var forced *wire.Error
			if code != "" {
				forced = core.Refuse(code, "operation %s was failed with %s through the hostsim admin API", id, code)
			}
			if err := c.settle(q, op, forced); err != nil {
				return err
			}
		}
		doc = op.Doc
		return nil
	})
	_ = c.fs.Flush(s.Store, s.Now())
	return doc, err
}

type discardWriter struct{}

func (discardWriter) Header() http.Header         { return http.Header{} }
func (discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (discardWriter) WriteHeader(int)             {}
