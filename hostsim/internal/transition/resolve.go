package transition

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition/backend"
)

// proof is the transitionProof of the 200 receipt (docs/protocol.md#transitions).
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

// resolve answers from the ledger as the readback table of docs/protocol.md#transitions says. It never
// dispatches: it only repairs forward from backend evidence, or rejects.
// deadline applies the ack-deadline rule; the POST paths do not (a POST that
// lost the dispatch fence must not declare the winner's call unobserved while
// it is under way), so only the readback turns silence into a rejection.
func (s *Service) resolve(c *Call, tenant, op string, deadline bool) answer {
	for range 8 {
		row, err := s.op(c.Ctx, tenant, op)
		if err != nil {
			return fail(internal(err))
		}
		if row == nil {
			return fail(notFoundOp(op))
		}
		var cr *crash
		switch {
		case row.Status == statusCommitted || row.Status == statusRejected:
			return stored(row)
		case row.Status == statusProven && row.Receipt != nil:
			err = s.terminal(c, row)
		case row.Status == statusProven:
			cr, err = s.advance(c, row)
		case !row.DispatchAttempted:
			return s.pending(row, statusPrepared)
		default:
			var ev *backend.Evidence
			if ev, err = s.evidence(c, op); err != nil {
				break
			}
			switch {
			case ev.Outcome == statusCommitted:
				cr, err = s.prove(c, row)
			case ev.Outcome == statusRejected:
				err = s.reject(c, row, ev.FailureCode, false)
			case deadline && time.Duration(s.Now().UnixNano()-row.DispatchedAt) >= s.ack:
				err = s.reject(c, row, "dispatch_not_observed", true)
			default:
				return s.pending(row, "indeterminate")
			}
		}
		if err != nil {
			return fail(internal(err))
		}
		if cr != nil {
			return answer{crash: cr}
		}
	}
	return fail(internal(fmt.Errorf("operation %s did not settle", op)))
}

// evidence reads what the backend ledger holds for an operation.
func (s *Service) evidence(c *Call, op string) (*backend.Evidence, error) {
	var ev *backend.Evidence
	err := s.st.Read(c.Ctx, func(q store.Q) error {
		var err error
		ev, err = backend.ReadEvidence(q, op)
		return err
	})
	return ev, err
}

// prove records the backend's commit proof (point D).
func (s *Service) prove(c *Call, row *opRow) (cr *crash, err error) {
	_, err = s.write(c, func(q store.Q) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r.Status != statusPrepared {
			return err
		}
		ev, err := backend.ReadEvidence(q, r.OperationID)
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
		pr := proof{OperationID: r.OperationID, FromForm: req.FromForm, ToForm: req.ToForm,
			TransitionEvidenceDigest: req.TransitionEvidence.Digest, ObservedSpecDigest: ev.ObservedSpecDigest, UID: r.PreUID,
			Generation: itoa(r.PreGeneration + 1), NativeIdentityDigest: ev.NativeIdentityDigest, Committed: true}
		if m, ok := c.Faults.Value(fault.TransitionProofWrong); ok {
			pr.spoil(m)
		}
		pf, _ := json.Marshal(pr) // strings, FormRefs and a bool: it cannot fail
		if err := setProof(q, r.Tenant, r.OperationID, pf); err != nil {
			return err
		}
		if _, err := setStatus(q, r.Tenant, r.OperationID, statusPrepared, statusProven, s.Now().UnixNano()); err != nil {
			return err
		}
		s.log(q, "D:proof", r, nil)
		cr = crashAt(c, "D", r.OperationID)
		return nil
	})
	return cr, err
}

// advance moves the resource to toForm at N+1 under the matching claim,
// releases the claim and keeps the receipt beside it (point E).
func (s *Service) advance(c *Call, row *opRow) (cr *crash, err error) {
	_, err = s.write(c, func(q store.Q) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r.Status != statusProven || r.Receipt != nil {
			return err
		}
		cur, err := store.GetResourceByUID(q, r.PreUID)
		if err != nil || cur == nil {
			return errors.Join(err, fmt.Errorf("%s: the claimed resource uid %s is gone", r.what(), r.PreUID))
		}
		if cur.ClaimOp != r.OperationID {
			return fmt.Errorf("%s: the claim on uid %s is %q, not operation %s; the resource is not advanced", r.what(), r.PreUID, cur.ClaimOp, r.OperationID)
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
		cur.ClaimOp, cur.ClaimSince, cur.ClaimPath, cur.LastTransition = "", "", "", r.OperationID
		pins, repinned, err := s.repin(c, q, req, cur)
		if err != nil {
			return err
		}
		if err := store.UpdateResource(q, cur); err != nil {
			return err
		}
		if repinned { // else pins is nil: the stored pins stay, and Render reads them
			if err := store.ReplacePins(q, cur.UID, pins, true); err != nil {
				return err
			}
		}
		// every source pinning the resource re-renders (its pin now records
		// the old ref: ExternalChange) and moves its revision, never its generation
		if err := s.Relations.Recompute(q, cur.Tenant, cur.Space, cur.APIVersion, cur.Kind, cur.Name, cur.UID,
			s.Now().UTC().Truncate(time.Second).Format(time.RFC3339), c.Faults); err != nil {
			return err
		}
		rep, err := s.Renderer.Render(q, cur, pins, c.Faults)
		if err != nil {
			return err
		}
		// r is proven, so its dispatch was attempted: its ledger row says so
		body, err := json.Marshal(receipt{Operation: s.view(r, statusCommitted), Resource: rep.JSON(), TransitionProof: r.Proof})
		if err != nil {
			return err
		}
		if err := setReceipt(q, r.Tenant, r.OperationID, body, `"`+itoa(cur.Revision)+`"`); err != nil {
			return err
		}
		s.log(q, "E:advance", r, map[string]any{"generation": cur.Generation, "revision": cur.Revision})
		cr = crashAt(c, "E", r.OperationID)
		return nil
	})
	return cr, err
}

// terminal records the committed status; the receipt was kept at point E.
func (s *Service) terminal(c *Call, row *opRow) error {
	_, err := s.write(c, func(q store.Q) error {
		ok, err := setStatus(q, row.Tenant, row.OperationID, statusProven, statusCommitted, s.Now().UnixNano())
		if err != nil || !ok {
			return err
		}
		s.log(q, "committed", row, nil)
		return nil
	})
	return err
}

// reject records the durable rejection receipt, then releases the claim
// (revision +1; ref, spec and generation untouched). notObserved is the
// deadline rule: it holds only while the backend still has no evidence.
func (s *Service) reject(c *Call, row *opRow, failure string, notObserved bool) error {
	_, err := s.write(c, func(q store.Q) error {
		r, err := getOp(q, row.Tenant, row.OperationID)
		if err != nil || r.Status != statusPrepared {
			return err
		}
		if notObserved {
			ev, err := backend.ReadEvidence(q, r.OperationID)
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
		if err := setRejection(q, r.Tenant, r.OperationID, failure, body, s.Now().UnixNano()); err != nil {
			return err
		}
		if cur != nil && cur.ClaimOp == r.OperationID {
			cur.ClaimOp, cur.ClaimSince, cur.ClaimPath = "", "", ""
			cur.Revision++
			if c.Faults.On(fault.TransitionRejectAdvances) {
				cur.Generation++ // as if the rejected spec had been applied
			}
			if err := store.UpdateResource(q, cur); err != nil {
				return err
			}
		}
		s.log(q, "rejected", r, map[string]any{"failureCode": failure})
		return nil
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

// repin resolves the relation pins of the spec under toForm. The references
// resolved when the claim was taken, and a pinned target cannot be deleted,
// so they resolve again; if one does not, the old pins stay and the journal
// says why (the backend already committed: the advance is not refused). A
// store read that fails while resolving is not "does not resolve": it fails
// the advance, and the next readback advances again.
func (s *Service) repin(c *Call, q store.Q, req *Request, cur *store.Resource) ([]store.Pin, bool, error) {
	var spec map[string]any
	if err := json.Unmarshal(req.Resource.Spec, &spec); err != nil {
		return nil, false, err
	}
	f, ok := s.Host.Form(req.ToForm.FormRef)
	if !ok {
		journal.Append(q, s.Now(), "transition", map[string]any{"step": "E:repin", "uid": cur.UID, "kept": "pins",
			"why": "toForm is no longer installed"})
		return nil, false, nil
	}
	pins, e, err := s.Relations.Resolve(q, f, cur.Tenant, cur.Space, spec, c.Faults)
	if err != nil {
		return nil, false, err // the store failing fails the advance: the next readback resolves again
	}
	if e != nil {
		journal.Append(q, s.Now(), "transition", map[string]any{"step": "E:repin", "uid": cur.UID, "kept": "pins", "why": e.Message})
		return nil, false, nil
	}
	cur.Pins = int64(len(pins))
	return pins, true, nil
}
