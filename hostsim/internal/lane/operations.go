package lane

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

const opAPIVersion = "operations.takoform.com/v1alpha1"

// isAsync decides whether a mutation answers 202 (host-api.md §12.1).
func (c *call) isAsync(ref wire.FormRef) bool {
	if c.probe == "async" {
		return true
	}
	if c.armed("apply.accept-unfinished", c.kind, c.name) != nil {
		return true
	}
	f, ok := c.s.Host.Form(ref)
	if !ok {
		return false
	}
	async, _ := c.s.Host.Async(f)
	return async
}

// accept records a pending Operation and returns the 202 body.
func (c *call) accept(q store.Q, action, kind, name string, request any, targetUID string) []byte {
	id := c.s.mint("op_")
	complete := int64(2)
	if f, ok := c.s.Host.Cat.Kind(c.params["group"]+"/"+c.params["version"], kind); ok && len(f.Versions) > 0 {
		_, complete = c.s.Host.Async(f.Versions[0])
	}
	if c.probe == "async" {
		complete = 2
	}
	if a := c.armed("apply.accept-unfinished", c.kind, c.name); a != nil {
		c.fired(a)
		complete = -1
	}
	doc := opDoc(id, targetUID, "Accepted", nil, nil)
	req, _ := json.Marshal(request)
	_ = store.InsertOperation(q, &store.Operation{ID: id, Tenant: c.who.Tenant, Principal: c.who.Principal,
		Action: action, Kind: kind, Name: name, Request: req, TargetUID: targetUID, CompleteAfter: complete,
		Doc: doc, CreatedAt: c.s.Now().Unix()})
	_ = Append(q, c.s.Now(), "operation-accepted", map[string]any{"id": id, "action": action, "kind": kind, "name": name})
	return marshal(map[string]json.RawMessage{"operation": doc})
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
func opDoc(id, uid, phase string, result any, opErr map[string]any) []byte {
	doc := map[string]any{"apiVersion": opAPIVersion, "kind": "Operation", "id": id,
		"done": phase != "Accepted", "metadata": map[string]string{"phase": phase}}
	if uid != "" {
		doc["target"] = map[string]string{"uid": uid}
	}
	if result != nil {
		doc["result"] = result
	}
	if opErr != nil {
		doc["error"] = opErr
	}
	return marshal(doc)
}

// ownOperation loads an operation of the caller's tenant and principal.
func (c *call) ownOperation(q store.Q) (*store.Operation, *apiError) {
	id := c.params["id"]
	op, err := store.GetOperation(q, id)
	if err != nil {
		return nil, internal(err)
	}
	if op == nil || op.Tenant != c.who.Tenant || op.Principal != c.who.Principal && !c.faultOn("operation.tenant-wide") {
		return nil, fail(wire.CodeOperationNotFound, "operation %s is unknown, expired or not yours", id)
	}
	return op, nil
}

// operation answers GET {api}/operations/{id}; a poll may commit (§12.3).
func (c *call) operation() *apiError {
	var doc []byte
	var pending bool
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		op, e := c.ownOperation(tx)
		if e != nil {
			return e
		}
		wasDone := op.Done
		if !op.Done {
			op.Polls++
			if op.CompleteAfter > 0 && op.Polls >= op.CompleteAfter {
				if err := c.settle(tx, op, nil); err != nil {
					return err
				}
			} else if err := store.UpdateOperation(tx, op); err != nil {
				return err
			}
		}
		doc, pending = op.Doc, !op.Done
		if wasDone && c.faultOn("operation.unstable") {
			doc = reencoded(op.Doc)
		}
		return nil
	})
	if werr != nil {
		return asAPI(werr)
	}
	if pending {
		c.w.Header().Set("Retry-After", strconv.Itoa(c.retryAfter()))
	}
	c.send(http.StatusOK, doc, "")
	return nil
}

func (c *call) retryAfter() int {
	if c.s.Probes {
		return 0
	}
	return c.s.RetryAfter
}

// cancel answers POST {api}/operations/{id}/cancel (§12.4).
func (c *call) cancel() *apiError {
	if err := c.requireEmptyBody(); err != nil {
		return err
	}
	var doc []byte
	werr := c.s.Store.Write(c.ctx, func(tx store.Q) error {
		op, e := c.ownOperation(tx)
		if e != nil {
			return e
		}
		if !op.Done && c.faultOn("operation.uncancellable") {
			if err := c.settle(tx, op, nil); err != nil {
				return err
			}
		}
		if !op.Done {
			ce := fail(wire.CodeOperationCancelled, "operation %s was cancelled before it committed; nothing was changed", op.ID)
			op.Done, op.Doc = true, opDoc(op.ID, op.TargetUID, "Cancelled", nil, ce.opError())
			if err := store.UpdateOperation(tx, op); err != nil {
				return err
			}
			if err := store.RebindOperationRecords(tx, op.ID, ""); err != nil {
				return err
			}
			if err := Append(tx, c.s.Now(), "operation-cancelled", map[string]string{"id": op.ID}); err != nil {
				return err
			}
		}
		doc = op.Doc
		return nil
	})
	if werr != nil {
		return asAPI(werr)
	}
	c.send(http.StatusOK, doc, "")
	return nil
}
