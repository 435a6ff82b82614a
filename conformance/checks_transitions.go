package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/takokit/takokit/catalog/wire"
)

// expectTxRefusal fails unless r is code with hostCode.
func expectTxRefusal(r *Resp, code wire.Code, hostCode string) error {
	if err := expectCode(r, code); err != nil {
		return err
	}
	if r.Err.HostCode != hostCode {
		return failf("%s: expected hostCode %q, got %q (%s)", r.What(), hostCode, r.Err.HostCode, r.Err.Message)
	}
	return nil
}

// committed runs one transition to its 200 receipt.
func (p *Probe) committed(ctx context.Context) (*txRequest, *Resp, *Resource, error) {
	tr, res, err := p.txResource(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	t, err := p.newTx(tr, res, tr.Marker)
	if err != nil {
		return nil, nil, nil, err
	}
	r, err := p.P.Do(ctx, t.req(""))
	if err != nil {
		return nil, nil, nil, err
	}
	moved, err := t.verifyReceipt(r)
	return t, r, moved, err
}

func checkTransitionFeature(ctx context.Context, p *Probe) error {
	tr, _, _, err := p.transitionPair()
	if err != nil {
		return err
	}
	r, err := p.get(ctx, DiscoveryPath)
	if err != nil {
		return err
	}
	if err := expectStatus(r, http.StatusOK); err != nil {
		return err
	}
	var d struct {
		Features map[string]bool `json:"features"`
	}
	if json.Unmarshal(r.Body, &d) != nil || !d.Features["resource_form_transition"] {
		return failf("%s: the host installs both ends of transition %s but does not advertise features.resource_form_transition: true", r.What(), tr.Marker)
	}
	return nil
}

func checkTransitionUnknownOperation(ctx context.Context, p *Probe) error {
	tr, res, err := p.txResource(ctx)
	if err != nil {
		return err
	}
	t, err := p.newTx(tr, res, tr.Marker)
	if err != nil {
		return err
	}
	r, err := p.get(ctx, t.readbackPath(wire.TransitionOperationPrefix+randomHex(32)))
	if err != nil {
		return err
	}
	if err := expectTxRefusal(r, wire.CodeResourceNotFound, "form_transition_operation_not_found"); err != nil {
		return err
	}
	r, err = p.get(ctx, t.readbackPath(t.OperationID))
	if err != nil {
		return err
	}
	return expectTxRefusal(r, wire.CodeResourceNotFound, "form_transition_operation_not_found")
}

func checkTransitionCommits(ctx context.Context, p *Probe) error {
	t, _, moved, err := p.committed(ctx)
	if err != nil {
		return err
	}
	now, err := p.readResource(ctx, t.to.Ref, t.Resource.Metadata.Name)
	if err != nil {
		return err
	}
	if now.Metadata.UID != t.Expected.UID || now.Metadata.Generation != moved.Metadata.Generation || now.Ref() != t.to.Ref {
		return failf("GET %s: after the commit the resource is %s uid %s generation %s, expected %s uid %s generation %s", ResourcePath(t.to.Ref, t.Resource.Metadata.Name), now.Ref(), now.Metadata.UID, now.Metadata.Generation, t.to.Ref, t.Expected.UID, moved.Metadata.Generation)
	}
	for _, c := range now.Status.Conditions {
		if c.Type == "Reconciling" {
			return failf("GET %s: the committed transition left a Reconciling condition", ResourcePath(t.to.Ref, t.Resource.Metadata.Name))
		}
	}
	r, err := p.read(ctx, p.P, t.from.Ref, t.Resource.Metadata.Name)
	if err != nil {
		return err
	}
	if err := expectCode(r, wire.CodeResourceNotFound); err != nil {
		return failf("%s (read under the old FormRef after the transition)", err)
	}
	return nil
}

func checkTransitionReplay(ctx context.Context, p *Probe) error {
	t, first, _, err := p.committed(ctx)
	if err != nil {
		return err
	}
	again, err := p.P.Do(ctx, t.req(""))
	if err != nil {
		return err
	}
	if again.Status != first.Status || !bytes.Equal(again.Body, first.Body) {
		return failf("%s: the resent request answered %d %s, expected the stored receipt byte for byte", again.What(), again.Status, snippet(again.Body))
	}
	rb, err := p.get(ctx, t.readbackPath(t.OperationID))
	if err != nil {
		return err
	}
	if rb.Status != http.StatusOK || !bytes.Equal(rb.Body, first.Body) {
		return failf("%s: the readback answered %d %s, expected the stored receipt byte for byte", rb.What(), rb.Status, snippet(rb.Body))
	}
	return nil
}

func checkTransitionNeverReIncrements(ctx context.Context, p *Probe) error {
	t, first, moved, err := p.committed(ctx)
	if err != nil {
		return err
	}
	for i := 0; i < 2; i++ {
		// a replay and the readback both answer the stored receipt: a host that
		// refused them would move nothing and prove nothing
		again, err := p.P.Do(ctx, t.req(""))
		if err != nil {
			return err
		}
		rb, err := p.get(ctx, t.readbackPath(t.OperationID))
		if err != nil {
			return err
		}
		for _, r := range []*Resp{again, rb} {
			if err := expectStatus(r, http.StatusOK); err != nil {
				return failf("%s (the committed transition's receipt, replayed)", err)
			}
			if !bytes.Equal(r.Body, first.Body) {
				return failf("%s: answered %s, expected the stored receipt", r.What(), snippet(r.Body))
			}
		}
	}
	now, err := p.readResource(ctx, t.to.Ref, t.Resource.Metadata.Name)
	if err != nil {
		return err
	}
	if now.Metadata.Generation != moved.Metadata.Generation {
		return failf("GET %s: replays moved the generation from %s to %s", ResourcePath(t.to.Ref, t.Resource.Metadata.Name), moved.Metadata.Generation, now.Metadata.Generation)
	}
	if len(t.to.Fixtures) > 0 && p.updatable(t.to) {
		b := &builtResource{f: t.to, res: now}
		_ = json.Unmarshal(now.Spec, &b.spec)
		if alt, _, err := p.changed(b); err == nil {
			if _, err := p.update(ctx, now, alt); err != nil {
				return err
			}
			rb, err := p.get(ctx, t.readbackPath(t.OperationID))
			if err != nil {
				return err
			}
			if err := expectStatus(rb, http.StatusOK); err != nil {
				return failf("%s (the readback after a later update)", err)
			}
			if !bytes.Equal(rb.Body, first.Body) {
				return failf("%s: after a later update the readback answered %s, expected the stored receipt", rb.What(), snippet(rb.Body))
			}
		}
	}
	return nil
}

func checkTransitionUndeclared(ctx context.Context, p *Probe) error {
	tr, res, err := p.txResource(ctx)
	if err != nil {
		return err
	}
	t, err := p.newTx(tr, res, "conformance-undeclared-transition")
	if err != nil {
		return err
	}
	r, err := p.P.Do(ctx, t.req(""))
	if err != nil {
		return err
	}
	if err := expectTxRefusal(r, wire.CodeInvalidArgument, "form_transition_undeclared"); err != nil {
		return failf("%s (an undeclared marker)", err)
	}
	return p.unchanged(ctx, res)
}

func checkTransitionDigestMismatch(ctx context.Context, p *Probe) error {
	tr, res, err := p.txResource(ctx)
	if err != nil {
		return err
	}
	bad, err := p.newTx(tr, res, tr.Marker)
	if err != nil {
		return err
	}
	bad.TransitionEvidence.Digest = flipDigest(bad.TransitionEvidence.Digest)
	if err := bad.sealIDs(); err != nil {
		return err
	}
	r, err := p.P.Do(ctx, bad.req(""))
	if err != nil {
		return err
	}
	if err := expectTxRefusal(r, wire.CodeInvalidArgument, "form_transition_digest_mismatch"); err != nil {
		return failf("%s (a transitionEvidence.digest that does not recompute)", err)
	}
	id, err := p.newTx(tr, res, tr.Marker)
	if err != nil {
		return err
	}
	id.OperationID = wire.TransitionOperationPrefix + randomHex(32)
	r, err = p.P.Do(ctx, id.req(""))
	if err != nil {
		return err
	}
	if err := expectTxRefusal(r, wire.CodeInvalidArgument, "form_transition_digest_mismatch"); err != nil {
		return failf("%s (an operationId that does not recompute)", err)
	}
	return p.unchanged(ctx, res)
}

func checkTransitionRequestMismatch(ctx context.Context, p *Probe) error {
	t, first, _, err := p.committed(ctx)
	if err != nil {
		return err
	}
	other := *t
	other.Resource.Spec = cloneSpec(t.Resource.Spec)
	alt, _, ok := variant(t.to, other.Resource.Spec, p.Name("v"), anyField)
	if !ok {
		return notApplicable("no other valid spec of %s could be derived", t.to.Ref)
	}
	other.Resource.Spec = alt
	r, err := p.P.Do(ctx, other.req(""))
	if err != nil {
		return err
	}
	if r.Code() != wire.CodeFormIdentityConflict && r.Code() != wire.CodeInvalidArgument {
		return failf("%s: a different request under the committed operationId %s must be refused (form_identity_conflict form_transition_request_mismatch, or invalid_argument form_transition_digest_mismatch); got %s", r.What(), t.OperationID, r.Got())
	}
	if h := r.Err.HostCode; h != "form_transition_request_mismatch" && h != "form_transition_digest_mismatch" {
		return failf("%s: hostCode %q, expected form_transition_request_mismatch or form_transition_digest_mismatch", r.What(), h)
	}
	rb, err := p.get(ctx, t.readbackPath(t.OperationID))
	if err != nil {
		return err
	}
	if rb.Status != http.StatusOK || !bytes.Equal(rb.Body, first.Body) {
		return failf("%s: after the refused request the readback answered %d %s, expected the stored receipt", rb.What(), rb.Status, snippet(rb.Body))
	}
	return nil
}
