package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

func hasReconciling(r *Resource) bool {
	for _, c := range r.Status.Conditions {
		if c.Type == "Reconciling" && c.Status == "True" && c.HostReason == "form-transition" {
			return true
		}
	}
	return false
}

func checkTransitionClaimFences(ctx context.Context, p *Probe) error {
	tr, res, err := p.txResource(ctx)
	if err != nil {
		return err
	}
	t, err := p.newTx(tr, res, tr.Marker)
	if err != nil {
		return err
	}
	r, err := p.P.Do(ctx, t.req("transition-hold"))
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusAccepted); err != nil {
		return err
	}
	var held struct {
		Operation txOperation `json:"operation,required"`
	}
	if err := wire.DecodeStrict(r.Body, &held); err != nil {
		return failf("%s: a held transition answers {\"operation\": …} only: %v", r.What(), err)
	}
	if held.Operation.Status != "prepared" || held.Operation.DispatchAttempted || held.Operation.OperationID != t.OperationID {
		return failf("%s: expected operation %s prepared, not dispatched; got %+v", r.What(), t.OperationID, held.Operation)
	}
	name := res.Metadata.Name
	now, err := p.readResource(ctx, t.from.Ref, name)
	if err != nil {
		return err
	}
	if !hasReconciling(now) || now.Metadata.Revision != nextDecimal(res.Metadata.Revision) || now.Metadata.Generation != res.Metadata.Generation {
		return failf("GET %s: while the claim is held expected Reconciling=True (form-transition), revision %s and generation %s; got revision %s generation %s", ResourcePath(t.from.Ref, name), nextDecimal(res.Metadata.Revision), res.Metadata.Generation, now.Metadata.Revision, now.Metadata.Generation)
	}
	var spec map[string]any
	_ = json.Unmarshal(res.Spec, &spec)
	for label, send := range sorted(map[string]func() (*Resp, error){
		"apply":   func() (*Resp, error) { return p.apply(ctx, p.P, t.from.Ref, name, spec, now.Metadata.Generation) },
		"observe": func() (*Resp, error) { return p.observe(ctx, p.P, t.from.Ref, name, now.Metadata.Generation, nil) },
		"delete":  func() (*Resp, error) { return p.del(ctx, p.P, t.from.Ref, name, now.Metadata.Generation, nil) },
	}) {
		r, err := send()
		if err != nil {
			return err
		}
		if err := expectTxRefusal(r, wire.CodeResourceBusy, "form_transition_in_progress"); err != nil {
			return failf("%s (%s while a transition claim is held)", err, label)
		}
		if r.Err.Retryable {
			return failf("%s: a claim refusal must be retryable false", r.What())
		}
	}
	r, err = p.P.Do(ctx, t.req(""))
	if err != nil {
		return err
	}
	_, err = t.verifyReceipt(r)
	return err
}

func checkTransitionRejection(ctx context.Context, p *Probe) error {
	tr, res, err := p.txResource(ctx)
	if err != nil {
		return err
	}
	t, err := p.newTx(tr, res, tr.Marker)
	if err != nil {
		return err
	}
	r, err := p.P.Do(ctx, t.req("transition-reject"))
	if err != nil {
		return err
	}
	if err := expectTxRefusal(r, wire.CodeFormIdentityConflict, "backend_rejected"); err != nil {
		return failf("%s (a definitive backend rejection)", err)
	}
	var det struct {
		OperationID   string `json:"operationId"`
		RequestDigest string `json:"requestDigest"`
		Status        string `json:"status"`
		FailureCode   string `json:"failureCode"`
	}
	if json.Unmarshal(r.Err.Details, &det) != nil || det.OperationID != t.OperationID || det.RequestDigest != t.requestDigest || det.Status != "rejected" || det.FailureCode != "backend_rejected" {
		return failf("%s: details must be {operationId %s, requestDigest %s, status rejected, failureCode backend_rejected}; got %s", r.What(), t.OperationID, t.requestDigest, snippet(r.Err.Details))
	}
	now, err := p.readResource(ctx, t.from.Ref, res.Metadata.Name)
	if err != nil {
		return err
	}
	r2 := nextDecimal(nextDecimal(res.Metadata.Revision))
	if now.Metadata.Generation != res.Metadata.Generation || now.Metadata.UID != res.Metadata.UID || !sameSpecRaw(now.Spec, res.Spec) || now.Metadata.Revision != r2 || hasReconciling(now) {
		return failf("GET %s: after the rejection expected the same ref, uid, spec and generation %s, revision %s and no Reconciling condition; got generation %s revision %s", ResourcePath(t.from.Ref, res.Metadata.Name), res.Metadata.Generation, r2, now.Metadata.Generation, now.Metadata.Revision)
	}
	rb, err := p.get(ctx, t.readbackPath(t.OperationID))
	if err != nil {
		return err
	}
	if err := expectTxRefusal(rb, wire.CodeFormIdentityConflict, "backend_rejected"); err != nil {
		return failf("%s (the readback of a rejected operation answers its stored rejection)", err)
	}
	again, err := p.newTx(tr, now, tr.Marker)
	if err != nil {
		return err
	}
	if again.OperationID == t.OperationID {
		return failf("the retry after a rejection must have a new operationId (the revision moved)")
	}
	ar, err := p.P.Do(ctx, again.req(""))
	if err != nil {
		return err
	}
	_, err = again.verifyReceipt(ar)
	return err
}

func sameSpecRaw(a, b []byte) bool {
	x, err1 := wire.Canonicalize(a)
	y, err2 := wire.Canonicalize(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
