package lane

import (
	"encoding/json"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// settle commits (or fails) a pending operation in tx: the accepted mutation is
// decided again against the store as it is now (host-api.md §12.5). forced is
// an error the admin API asked for instead of committing.
func (c *call) settle(tx store.Q, op *store.Operation, forced *apiError) error {
	var result any
	uid := op.TargetUID
	var failure *apiError
	switch {
	case forced != nil:
		failure = forced
	case op.Action == "delete":
		var d deletion
		_ = json.Unmarshal(op.Request, &d)
		cur, e := c.decideDelete(tx, &d, true)
		if e != nil {
			failure = e
			break
		}
		if err := c.commitDelete(tx, cur); err != nil {
			return err
		}
		result = map[string]bool{"deleted": true}
	default:
		var m mutation
		_ = json.Unmarshal(op.Request, &m)
		o, e := c.decide(tx, &m, true)
		if e != nil {
			failure = e
			break
		}
		if err := c.commitOutcome(tx, o); err != nil {
			return err
		}
		rep, e := c.render(tx, o.next)
		if e != nil {
			return e
		}
		uid = o.next.UID
		result = map[string]any{"resource": rep}
	}
	op.Done = true
	bound := ""
	if failure != nil {
		op.Doc = opDoc(op.ID, op.TargetUID, "Failed", nil, failure.opError())
	} else {
		op.TargetUID = uid
		op.Doc = opDoc(op.ID, uid, "Succeeded", result, nil)
		if op.Action != "delete" {
			bound = uid
		}
	}
	if err := store.UpdateOperation(tx, op); err != nil {
		return err
	}
	if err := store.RebindOperationRecords(tx, op.ID, bound); err != nil {
		return err
	}
	return Append(tx, c.s.Now(), "operation-settled", map[string]any{"id": op.ID, "failed": failure != nil})
}
