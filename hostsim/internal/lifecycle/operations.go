package lifecycle

import (
	"context"
	"encoding/json"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/store"
)

const opAPIVersion = "operations.takoform.com/v1alpha1"

// Accepted is a mutation answered 202: who asked, what, and after how many
// polls it settles (< 0: only through the admin API).
type Accepted struct {
	Tenant, Principal  string
	Action, Kind, Name string
	Request            any    // the Mutation or Deletion decided again at commit
	TargetUID          string // the incarnation it addresses, "" for a create
	CompleteAfter      int64
}

// Accept records a pending Operation and returns the 202 body.
func (en *Engine) Accept(q store.Q, a Accepted) ([]byte, string, error) {
	id := en.Mint("op_")
	doc := Document(id, a.TargetUID, "Accepted", nil, nil)
	req, _ := json.Marshal(a.Request)
	if err := store.InsertOperation(q, &store.Operation{ID: id, Tenant: a.Tenant, Principal: a.Principal,
		Action: a.Action, Kind: a.Kind, Name: a.Name, Request: req, TargetUID: a.TargetUID, CompleteAfter: a.CompleteAfter,
		Doc: doc, CreatedAt: en.Now().Unix()}); err != nil {
		return nil, "", err
	}
	journal.Append(q, en.Now(), "operation-accepted", map[string]any{"id": id, "action": a.Action, "kind": a.Kind, "name": a.Name})
	b, _ := json.Marshal(map[string]json.RawMessage{"operation": doc})
	return b, id, nil
}

// Document renders an Operation document.
func Document(id, uid, phase string, result any, opErr *wire.Error) []byte {
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
	b, _ := json.Marshal(doc)
	return b
}

// Settle commits (or fails) a pending operation in q: the accepted mutation
// is decided again against the store as it is now. forced is an error the
// admin API asked for instead of committing. An error fails the write and
// leaves the operation pending. unsettled is the database of a migration
// application failing at the commit: q holds what the run applied (journal
// events, re-rendering) and must commit, the operation stays pending, and the
// request answers unsettled (docs/protocol.md#migrations).
func (en *Engine) Settle(q store.Q, op *store.Operation, forced *wire.Error, fs *fault.Set) (unsettled *wire.Error, err error) {
	var result any
	uid := op.TargetUID
	failure := forced
	switch {
	case forced != nil:
	case op.Action == "delete":
		var d decide.Deletion
		_ = json.Unmarshal(op.Request, &d)
		cur, e := en.DecideDelete(q, &d, true, "delete", fs)
		// the host failing fails the write, and the operation stays pending
		// (docs/protocol.md#operations); a refusal is the operation's outcome
		if decide.IsInternal(e) {
			return nil, e
		}
		if e != nil {
			failure = e
			break
		}
		if err := en.CommitDelete(q, cur, fs); err != nil {
			return nil, err
		}
		result = map[string]bool{"deleted": true}
	default:
		var m decide.Mutation
		_ = json.Unmarshal(op.Request, &m)
		o, e := en.Decide(q, &m, nil, true, m.Action, fs)
		if decide.IsInternal(e) {
			return nil, e
		}
		if e == nil {
			if e, err = en.Migrate(q, o, fs); err != nil {
				return nil, err
			}
			if decide.IsInternal(e) { // the database failed: not the operation's outcome
				return e, nil
			}
		}
		if e != nil {
			failure = e
			break
		}
		rep, err := en.Commit(q, o, fs)
		if err != nil {
			return nil, err
		}
		uid = o.Next.UID
		result = map[string]json.RawMessage{"resource": rep}
	}
	op.Done = true
	bound := ""
	if failure != nil {
		op.Doc = Document(op.ID, op.TargetUID, "Failed", nil, failure)
	} else {
		op.TargetUID = uid
		op.Doc = Document(op.ID, uid, "Succeeded", result, nil)
		if op.Action != "delete" {
			bound = uid
		}
	}
	if err := store.UpdateOperation(q, op); err != nil {
		return nil, err
	}
	if err := store.RebindOperationRecords(q, op.ID, bound); err != nil {
		return nil, err
	}
	journal.Append(q, en.Now(), "operation-settled", map[string]any{"id": op.ID, "failed": failure != nil})
	return nil, nil
}

// Cancel ends a pending operation with operation_cancelled, committing nothing.
func (en *Engine) Cancel(q store.Q, op *store.Operation) error {
	ce := decide.Refuse(wire.CodeOperationCancelled, "operation %s was cancelled before it committed; nothing was changed", op.ID)
	op.Done, op.Doc = true, Document(op.ID, op.TargetUID, "Cancelled", nil, ce)
	if err := store.UpdateOperation(q, op); err != nil {
		return err
	}
	if err := store.RebindOperationRecords(q, op.ID, ""); err != nil {
		return err
	}
	journal.Append(q, en.Now(), "operation-cancelled", map[string]string{"id": op.ID})
	return nil
}

// Complete finishes a pending operation now (the admin API): it commits, or
// fails with code when code is not empty. It returns the Operation document.
// Faults scoped to the operation's kind and resource act as on a poll.
func (en *Engine) Complete(ctx context.Context, st *store.Store, armory *fault.Armory, id string, code wire.Code) ([]byte, error) {
	fs := armory.Request(decide.NewRequestID(), "", "")
	var doc []byte
	err := fs.Write(ctx, st, en.Now, func(q store.Q) error {
		op, err := store.GetOperation(q, id)
		if err != nil {
			return err
		}
		if op == nil {
			return decide.Refuse(wire.CodeOperationNotFound, "operation %s is unknown; GET /_sim/state lists the host's operations", id)
		}
		fs.Scope(op.Kind, op.Name)
		if !op.Done {
			var forced *wire.Error
			if code != "" {
				forced = decide.Refuse(code, "operation %s was failed with %s through the hostsim admin API", id, code)
			}
			// the commit's database failing commits what it applied and
			// answers the failure: the operation stays pending
			if err := fault.Answer(en.Settle(q, op, forced, fs)); err != nil {
				return err
			}
		}
		doc = op.Doc
		return nil
	})
	_ = fs.Flush(st, en.Now)
	return doc, err
}
