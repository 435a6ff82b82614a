package transition

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lane"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// proof is the transitionProof of the 200 receipt (transitions.md §7).
type proof struct {
	OperationID              string       `json:"operationId"`
	FromForm                 FormEvidence `json:"fromForm"`
	ToForm                   FormEvidence `json:"toForm"`
	TransitionEvidenceDigest string       `json:"transitionEvidenceDigest"`
	ObservedSpecDigest       string       `json:"observedSpecDigest"`
	UID                      string       `json:"uid"`
	Generation               string       `json:"generation"`
	NativeIdentityDigest     string       `json:"nativeIdentityDigest"`
	Committed                bool         `json:"committed"`
}

type receipt struct {
	Operation       opView          `json:"operation"`
	Resource        json.RawMessage `json:"resource"`
	TransitionProof json.RawMessage `json:"transitionProof"`
}

// resolve answers from the ledger as the readback table of §6 says. It never
// dispatches: it only repairs forward from backend evidence, or rejects.
// deadline applies the ack-deadline rule; the POST paths do not (a POST that
// lost the dispatch fence must not declare the winner's call unobserved while
// it is under way), so only the readback turns silence into a rejection.
func (s *Service) resolve(x *lane.Exchange, tenant, op string, deadline bool) answer {
	for range 8 {
		row, err := getOp(s.st.DB(), tenant, op)
		if err != nil {
			return fail(internal(err))
		}
		if row == nil {
			return fail(notFoundOp(op))
		}
		var c *crash
		switch {
		case row.Status == statusCommitted || row.Status == statusRejected:
			return stored(row)
		case row.Status == statusProven && row.Receipt != nil:
			err = s.finish(x, row)
		case row.Status == statusProven:
			c, err = s.advance(x, row)
		case !row.DispatchAttempted:
			return pending(row, statusPrepared)
		default:
			var ev *evidence
			if ev, err = backendEvidence(s.st.DB(), op); err != nil {
				break
			}
			switch {
			case ev.Outcome == statusCommitted:
				c, err = s.prove(x, row)
			case ev.Outcome == statusRejected:
				err = s.reject(x, row, ev.FailureCode, false)
			case deadline && time.Duration(x.Now().UnixNano()-row.DispatchedAt) >= s.ack:
				err = s.reject(x, row, "dispatch_not_observed", true)
			default:
				return pending(row, "indeterminate")
			}
		}
		if err != nil {
			return fail(internal(err))
		}
		if c != nil {
			return answer{crash: c}
		}
	}
	return fail(internal(fmt.Errorf("operation %s did not settle", op)))
}

// prove is §5 step 6 (point D): record the backend's commit proof.
func (s *Service) prove(x *lane.Exchange, row *opRow) (c *crash, err error) {
	_, err = s.write(x, func(q store.Q, fired *[]*fault.Armed) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r.Status != statusPrepared {
			return err
		}
		ev, err := backendEvidence(q, r.OperationID)
		if err != nil || ev.Outcome != statusCommitted {
			return err
		}
		if ev.ObservedSpecDigest != r.DesiredSpecDigest || ev.NativeIdentityDigest != r.NativeIdentityDigest {
			return fmt.Errorf("the backend's evidence for %s (spec %s, native identity %s) does not match the operation (spec %s, native identity %s)",
				r.OperationID, ev.ObservedSpecDigest, ev.NativeIdentityDigest, r.DesiredSpecDigest, r.NativeIdentityDigest)
		}
		req, err := r.request()
		if err != nil {
			return err
		}
		pf, err := json.Marshal(proof{OperationID: r.OperationID, FromForm: req.FromForm, ToForm: req.ToForm,
			TransitionEvidenceDigest: req.TransitionEvidence.Digest, ObservedSpecDigest: ev.ObservedSpecDigest, UID: r.PreUID,
			Generation: itoa(r.PreGeneration + 1), NativeIdentityDigest: ev.NativeIdentityDigest, Committed: true})
		if err != nil {
			return err
		}
		if err := setProof(q, r.Tenant, r.OperationID, pf); err != nil {
			return err
		}
		if _, err := setStatus(q, r.Tenant, r.OperationID, statusPrepared, statusProven, x.Now().UnixNano()); err != nil {
			return err
		}
		if err := journal(x, q, "D:proof", r, nil); err != nil {
			return err
		}
		c, err = crashAt(x, q, "D", r.OperationID, fired)
		return err
	})
	return c, err
}

// advance is §5 step 7 (point E): move the resource to toForm at N+1 under the
// matching claim, release the claim and keep the receipt beside it.
func (s *Service) advance(x *lane.Exchange, row *opRow) (c *crash, err error) {
	_, err = s.write(x, func(q store.Q, fired *[]*fault.Armed) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r.Status != statusProven || r.Receipt != nil {
			return err
		}
		m, err := getMark(q, r.PreUID)
		if err != nil {
			return err
		}
		if m.ClaimOp != r.OperationID {
			return fmt.Errorf("%s: the claim on uid %s is %q, not operation %s; the resource is not advanced", r.what(), r.PreUID, m.ClaimOp, r.OperationID)
		}
		cur, err := store.GetResourceByUID(q, r.PreUID)
		if err != nil || cur == nil {
			return errors.Join(err, fmt.Errorf("%s: the claimed resource uid %s is gone", r.what(), r.PreUID))
		}
		req, err := r.request()
		if err != nil {
			return err
		}
		spec, err := wire.Canonicalize(req.Resource.Spec)
		if err != nil {
			return err
		}
		to := req.ToForm.FormRef
		cur.DefVersion, cur.SchemaDigest = to.DefinitionVersion, to.SchemaDigest
		cur.Spec, cur.SpecDigest = spec, r.DesiredSpecDigest
		cur.Generation, cur.Revision = r.PreGeneration+1, cur.Revision+1
		if err := store.UpdateResource(q, cur); err != nil {
			return err
		}
		if err := repin(x, q, req, cur); err != nil {
			return err
		}
		m.ClaimOp, m.ClaimSince, m.ClaimPath, m.LastOp = "", "", "", r.OperationID
		if err := putMark(q, m); err != nil {
			return err
		}
		if err := x.Recompute(q, cur); err != nil {
			return err
		}
		rep, err := x.Render(q, cur)
		if err != nil {
			return err
		}
		r.DispatchAttempted = true
		body, err := json.Marshal(receipt{Operation: view(r, statusCommitted), Resource: rep, TransitionProof: r.Proof})
		if err != nil {
			return err
		}
		if err := setReceipt(q, r.Tenant, r.OperationID, body, `"`+itoa(cur.Revision)+`"`); err != nil {
			return err
		}
		if err := journal(x, q, "E:advance", r, map[string]any{"generation": cur.Generation, "revision": cur.Revision}); err != nil {
			return err
		}
		c, err = crashAt(x, q, "E", r.OperationID, fired)
		return err
	})
	return c, err
}

// finish is §5 step 8: the terminal status; the receipt was kept at step 7.
func (s *Service) finish(x *lane.Exchange, row *opRow) error {
	_, err := s.write(x, func(q store.Q, _ *[]*fault.Armed) error {
		ok, err := setStatus(q, row.Tenant, row.OperationID, statusProven, statusCommitted, x.Now().UnixNano())
		if err != nil || !ok {
			return err
		}
		return journal(x, q, "committed", row, nil)
	})
	return err
}

// reject records the durable rejection receipt, then releases the claim
// (revision +1; ref, spec and generation untouched). notObserved is the
// deadline rule: it holds only while the backend still has no evidence.
func (s *Service) reject(x *lane.Exchange, row *opRow, failure string, notObserved bool) error {
	_, err := s.write(x, func(q store.Q, _ *[]*fault.Armed) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r.Status != statusPrepared {
			return err
		}
		if notObserved {
			ev, err := backendEvidence(q, r.OperationID)
			if err != nil || ev.Outcome != "" {
				return err
			}
		}
		cur, err := store.GetResourceByUID(q, r.PreUID)
		if err != nil {
			return err
		}
		e := refuse(wire.CodeFormIdentityConflict, failure, "%s", rejectionMessage(r, failure, s.ack))
		e.Details, _ = json.Marshal(map[string]string{"operationId": r.OperationID, "requestDigest": r.RequestDigest,
			"status": statusRejected, "failureCode": failure})
		body, _ := json.Marshal(e)
		if err := setRejection(q, r.Tenant, r.OperationID, failure, body, x.Now().UnixNano()); err != nil {
			return err
		}
		m, err := getMark(q, r.PreUID)
		if err != nil {
			return err
		}
		if m.ClaimOp == r.OperationID && cur != nil {
			m.ClaimOp, m.ClaimSince, m.ClaimPath = "", "", ""
			if err := putMark(q, m); err != nil {
				return err
			}
			cur.Revision++
			if x.Lapse("transition.reject-advances") {
				cur.Generation++ // as if the rejected spec had been applied
			}
			if err := store.UpdateResource(q, cur); err != nil {
				return err
			}
		}
		return journal(x, q, "rejected", r, map[string]any{"failureCode": failure})
	})
	return err
}

func rejectionMessage(r *opRow, failure string, ack time.Duration) string {
	why := "the backend definitively rejected it"
	if failure == "dispatch_not_observed" {
		why = fmt.Sprintf("the backend never acknowledged the dispatch within the host's acknowledgement deadline (%s), so nothing was applied", ack)
	}
	return fmt.Sprintf("Form transition %s of %s was rejected (failureCode %s): %s. The resource keeps its Form, spec and generation %d and stays operable; refresh it and apply again (the new attempt gets a new operationId)",
		r.OperationID, r.what(), failure, why, r.PreGeneration)
}

// repin records the relation pins of the spec under toForm. The references
// resolved when the claim was taken, and a pinned target cannot be deleted,
// so they resolve again; if one does not, the old pins stay and the journal
// says why (the backend already committed: the advance is not refused).
func repin(x *lane.Exchange, q store.Q, req *Request, cur *store.Resource) error {
	var spec map[string]any
	if err := json.Unmarshal(req.Resource.Spec, &spec); err != nil {
		return err
	}
	f, ok := x.Host().Form(req.ToForm.FormRef)
	if !ok {
		return lane.Append(q, x.Now(), "transition", map[string]any{"step": "E:repin", "uid": cur.UID, "kept": "pins",
			"why": "toForm is no longer installed"})
	}
	pins, e := x.Relations(q, f, cur.Space, cur.Name, spec)
	if e != nil {
		return lane.Append(q, x.Now(), "transition", map[string]any{"step": "E:repin", "uid": cur.UID, "kept": "pins", "why": e.Message})
	}
	return store.ReplacePins(q, cur.UID, pins)
}
