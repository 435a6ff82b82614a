package takoform

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/provider/internal/client"
)

// transitionOutcome is what one transition attempt ended with.
type transitionOutcome int

const (
	txCommitted transitionOutcome = iota
	txRejected
	txIndeterminate
	txFailed
)

// buildTransition computes the request from state and configuration, or reuses the
// kept bytes of an unresolved transition (byte for byte).
func (r *Resource) buildTransition(prior, plan values, from, to *model.Form, marker string, kept []byte) (*client.TxRequest, error) {
	if req := keptRequest(prior, kept); req != nil {
		return req, nil
	}
	spec, err := encodeSpec(to, plan)
	if err != nil {
		return nil, err
	}
	return client.BuildTransition(client.TxInput{Marker: marker,
		From: client.TxForm{FormRef: from.Ref, PackageDigest: from.PackageDigest},
		To:   client.TxForm{FormRef: to.Ref, PackageDigest: to.PackageDigest},
		Name: prior.str(aName), Space: prior.str(aSpace), Spec: spec,
		Expected: client.TxExpected{UID: prior.str(aUID), Generation: prior.str(aGeneration), Revision: prior.str(aRevision)}})
}

// transact runs GET-before-POST with at most one POST (docs/provider-design.md#transitions).
func (r *Resource) transact(ctx context.Context, req *client.TxRequest) (*client.TxAnswer, transitionOutcome, error) {
	c := r.configured.client
	rb, err := c.TransitionReadback(ctx, req)
	post := false
	switch {
	case err == nil && rb.Status == 200:
		return settleCommitted(rb, req)
	case err == nil && rb.Operation.Status == "prepared" && !rb.Operation.DispatchAttempted && rb.Operation.RequestDigest == req.RequestDigest:
		post = true
	case err == nil:
		return rb, txIndeterminate, fmt.Errorf("the host reports the transition %s (dispatched: %t)", rb.Operation.Status, rb.Operation.DispatchAttempted)
	}
	if err != nil {
		if unknownOperation(err) {
			post = true
		} else if _, rejected := client.IsRejection(err); rejected {
			return nil, txRejected, err
		} else {
			return nil, txIndeterminate, err
		}
	}
	if !post {
		return nil, txIndeterminate, errors.New("no readback decision")
	}
	ans, err := c.TransitionPost(ctx, req)
	lost := client.IsTransport(err)
	if lost || outcomeOpen(err) {
		// exactly one readback, which never leads to a POST
		rb, rerr := c.TransitionReadback(ctx, req)
		if rerr == nil && rb.Status == 200 {
			return settleCommitted(rb, req)
		}
		if _, rejected := client.IsRejection(rerr); rejected {
			return nil, txRejected, rerr
		}
		if !lost && unknownOperation(rerr) {
			// the host answered the POST and holds nothing of it: its failure is final
			return nil, txFailed, err
		}
		if rerr != nil {
			return nil, txIndeterminate, &lostAnswer{post: err, readback: rerr}
		}
		return rb, txIndeterminate, err
	}
	if err != nil {
		if _, rejected := client.IsRejection(err); rejected {
			return nil, txRejected, err
		}
		return nil, txFailed, err
	}
	if ans.Status == 202 {
		return ans, txIndeterminate, fmt.Errorf("the host answered the transition %s", ans.Operation.Status)
	}
	return settleCommitted(ans, req)
}

// unknownOperation says whether err is a readback's answer that the host holds no
// operation of that id (it never saw the POST, or kept nothing of it).
func unknownOperation(err error) bool {
	h, ok := client.AsHost(err)
	return ok && h.Status == 404 && h.Env.HostCode == "form_transition_operation_not_found"
}

// outcomeOpen says whether a POST's failed answer leaves the transition's outcome
// open. A refusal (4xx) stores nothing (docs/protocol.md, "Form transitions"); a
// server error (5xx) or an answer that breaks the protocol (a 2xx that is not a
// transition answer) may come after the host committed, as hostsim's store.fail on
// a statement after the advance shows. Such a POST is read back once, as a lost one.
func outcomeOpen(err error) bool {
	if h, ok := client.AsHost(err); ok {
		return h.Status >= 500
	}
	var p *client.ProtocolError
	return errors.As(err, &p) && (p.Status < 400 || p.Status >= 500)
}

// lostAnswer is a POST whose answer was lost (or left the outcome open) and the one
// readback after it, which failed too. It unwraps to the POST's error, what the report is about: a POST no
// host answered makes it an unreachable report (docs/provider-design.md#diagnostics,
// "No host answered"). The readback's error is its detail, never its host answer: a
// readback's 404 is not the host refusing the transition.
type lostAnswer struct{ post, readback error }

func (e *lostAnswer) Error() string { return fmt.Sprintf("%v; readback: %v", e.post, e.readback) }
func (e *lostAnswer) Unwrap() error { return e.post }

// readbackCause is the readback's part of an unreachable report's cause (the POST's is
// the report's own).
func (e *lostAnswer) readbackCause() string {
	if u, ok := client.AsUnreachable(e.readback); ok {
		return unreachableCause(u)
	}
	return e.readback.Error()
}

func settleCommitted(a *client.TxAnswer, req *client.TxRequest) (*client.TxAnswer, transitionOutcome, error) {
	if err := client.VerifyCommitted(a, req); err != nil {
		return a, txIndeterminate, fmt.Errorf("the commit receipt does not verify: %w", err)
	}
	return a, txCommitted, nil
}

// updateTransition is Update's transition branch (docs/provider-design.md#transitions "Apply").
func (r *Resource) updateTransition(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse, prior, plan values, from, to *model.Form) {
	m := r.kind.model
	name := prior.str(aName)
	marker := plan.str(aFormTransition)
	kept, _ := req.Private.GetKey(ctx, privateTransitionKey)
	rep := &report{typeName: m.typeName, space: prior.str(aSpace), name: name, ref: &from.Ref}
	rep.fence("Expected UID", prior.str(aUID)).fence("Expected generation", prior.str(aGeneration)).fence("Expected revision", prior.str(aRevision))
	txr, err := r.buildTransition(prior, plan, from, to, marker, kept)
	if err != nil {
		rep.summary, rep.what = fmt.Sprintf("Could not build the Form transition of %s %s", m.kind.Kind, name), "Nothing was sent; the state keeps the prior values."
		rep.unencodable(err).add(&resp.Diagnostics)
		return
	}
	rep.opID = txr.OperationID
	disc, err := r.configured.client.Discover(ctx)
	if err == nil && !disc.Features["resource_form_transition"] {
		rep.summary, rep.code = fmt.Sprintf("Host does not offer the Form transition of %s %s", m.kind.Kind, name), codeHostNoTransition
		rep.what = "Discovery does not advertise resource_form_transition; nothing was sent."
		rep.repair = "Use a host that offers Form transitions, or remove form_transition to stay on " + from.Ref.DefinitionVersion + "."
		rep.add(&resp.Diagnostics)
		return
	}
	tmo := timeout(plan, aUpdateTimeout, defaultUpdateTimeout)
	if !from.DeclaresUpdate {
		tmo = timeout(plan, aCreateTimeout, defaultCreateTimeout) // Forms without update: re-pins and transitions use create_timeout
	}
	ctx, cancel := context.WithTimeout(ctx, tmo)
	defer cancel()
	ans, outcome, err := r.transact(ctx, txr)
	readback := ""
	if d, derr := r.configured.client.Discover(ctx); derr == nil {
		readback = client.ReadbackPath(d.API, to.Ref, name, prior.str(aSpace), txr.OperationID)
	}
	switch outcome {
	case txCommitted:
		st, ferr := m.fromResource(plan, to, ans.Resource, adoptUnknown, &resp.Diagnostics)
		if ferr != nil {
			rep.summary, rep.code, rep.cause = "Host response is not usable", codeHostResponseInvalid, ferr.Error()
			rep.violatedAt(ferr).add(&resp.Diagnostics)
			return
		}
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateTransitionKey, nil)...)
		r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
	case txRejected:
		failure, _ := client.IsRejection(err)
		rep.summary = fmt.Sprintf("Host rejected the Form transition of %s %s", m.kind.Kind, name)
		rep.what = "The transition was definitively rejected with failure code " + failure + "; the resource is unchanged and operable on " + from.Ref.DefinitionVersion + "."
		rep.withErr(err)
		rep.code = codeFormTransitionRejected + " (" + rep.code + ")"
		rep.repair = "Apply again to try under a new operation id (the host's message above says why it rejected this one), or remove form_transition to stay on " + from.Ref.DefinitionVersion + "."
		// the rejected operation is over: the state stops recording it as its kept request
		// goes, or every later refresh would fail to find that request
		st := prior.clone()
		st[aPendingOp] = strOrNull("")
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateTransitionKey, nil)...)
		r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
		rep.add(&resp.Diagnostics)
	case txIndeterminate:
		st := prior.clone()
		st[aPendingOp] = strVal(txr.OperationID)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateTransitionKey, txr.Body)...)
		r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
		rep.summary = fmt.Sprintf("Outcome of the Form transition of %s %s is not known yet", m.kind.Kind, name)
		rep.what = "The state keeps " + from.Ref.DefinitionVersion + " and records the operation; running apply again reconciles it"
		if readback != "" {
			rep.what += " (readback " + readback + ")"
		}
		rep.what += "."
		rep.withErr(err)
		rep.code, rep.repair = codeFormTransitionIndeterminat, "Run tofu apply again with the same configuration."
		if u, ok := client.AsUnreachable(err); ok {
			rep.code += " (" + codeHostUnreachable + ")"
			rep.repair = unreachableRepair(u) + " The same configuration reconciles the transition."
			var lost *lostAnswer
			if errors.As(err, &lost) {
				rep.cause += "; readback: " + lost.readbackCause()
			}
		}
		rep.add(&resp.Diagnostics)
	default:
		rep.summary = fmt.Sprintf("Failed to update %s %s", m.kind.Kind, name)
		rep.what = refusedOr(err, "Form transition", "the resource stays on "+from.Ref.DefinitionVersion+".")
		rep.withErr(err).add(&resp.Diagnostics)
	}
}

// readTransition consults an unresolved transition's readback once before the read
// (docs/provider-design.md#pending-operations). It returns the values to continue the read with (possibly under
// the `to` ref), and stop=true when the read must end with the state untouched.
func (r *Resource) readTransition(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse, prior values, from *model.Form, d *diag.Diagnostics) (values, *model.Form, bool) {
	m := r.kind.model
	name := prior.str(aName)
	op := prior.str(aPendingOp)
	kept, _ := req.Private.GetKey(ctx, privateTransitionKey)
	rep := report{typeName: m.typeName, space: prior.str(aSpace), name: name, ref: &from.Ref, opID: op}
	txr := keptRequest(prior, kept)
	if txr == nil {
		rep.summary = fmt.Sprintf("Could not check the Form transition of %s %s", m.kind.Kind, name)
		rep.what, rep.code = "The request of the unresolved transition is not in the resource's private state; the state was kept.", codeOperationResumeFailed
		rep.repair = "Run tofu apply with the same configuration to re-send it."
		rep.add(d)
		return nil, nil, true
	}
	rb, err := r.configured.client.TransitionReadback(ctx, txr)
	clear := func() {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateTransitionKey, nil)...)
	}
	switch {
	case err == nil && rb.Status == 200:
		if verr := client.VerifyCommitted(rb, txr); verr != nil {
			rep.summary = fmt.Sprintf("Could not check the Form transition of %s %s", m.kind.Kind, name)
			rep.what, rep.cause, rep.code = "The commit receipt does not verify; the state was kept.", verr.Error(), codeHostResponseInvalid
			rep.repair = "The host's proof does not match the transition that was sent, so the provider adopts nothing. Report it to the host operator; once the host's readback verifies, the next refresh or apply adopts the commit."
			rep.add(d)
			return nil, nil, true
		}
		to, ok := m.cat.Form(txr.To.FormRef)
		if !ok {
			return nil, nil, true
		}
		clear()
		// the read goes on under the `to` ref; what it reads back (fromResource)
		// records the ref, uid and generation, so only the marker is cleared here:
		// a read that then fails names no operation that has ended
		next := prior.clone()
		next[aPendingOp] = strOrNull("")
		return next, to, false
	case err == nil:
		rep.warning = true
		rep.summary = fmt.Sprintf("%s %s has a Form transition in progress", m.kind.Kind, name)
		rep.what = "The host reports it " + rb.Operation.Status + " (readback " + rb.Operation.ReconcilePath + "); the state is kept unchanged."
		rep.repair = "Run tofu apply again with the same configuration."
		rep.add(d)
		return nil, nil, true
	}
	if failure, rejected := client.IsRejection(err); rejected {
		rep.warning = true
		rep.summary = fmt.Sprintf("Form transition of %s %s was rejected", m.kind.Kind, name)
		rep.what = "The host rejected the transition with failure code " + failure + "; the resource is unchanged and operable on " +
			from.Ref.DefinitionVersion + ", and the state no longer records the operation."
		rep.withErr(err)
		rep.code = codeFormTransitionRejected + " (" + rep.code + ")"
		rep.add(d)
		clear()
		next := prior.clone()
		next[aPendingOp] = strOrNull("")
		return next, from, false
	}
	if h, ok := client.AsHost(err); ok && h.Status == 404 && h.Env.HostCode == "form_transition_operation_not_found" {
		clear()
		next := prior.clone()
		next[aPendingOp] = strOrNull("")
		return next, from, false
	}
	rep.summary = fmt.Sprintf("Could not check the Form transition of %s %s", m.kind.Kind, name)
	rep.what = "The readback could not be read; the state was kept."
	rep.withErr(err).add(d)
	return nil, nil, true
}
