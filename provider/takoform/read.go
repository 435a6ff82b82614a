package takoform

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

func (r *Resource) setState(ctx context.Context, dst *tftypes.Value, v values, d *diag.Diagnostics) {
	raw, err := v.raw(ctx, r.kind.objectType)
	if err != nil {
		d.AddError("Could not build the resource state", err.Error()+" (provider bug)")
		return
	}
	*dst = raw
}

func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m := r.kind.model
	prior, err := readValues(ctx, r.kind.objectType, req.State.Raw)
	if err != nil || prior == nil {
		resp.Diagnostics.AddError("Could not read the prior state", fmt.Sprint(err))
		return
	}
	form := r.stateForm(prior, &resp.Diagnostics)
	if form == nil {
		return
	}
	name, space := prior.str(aName), prior.str(aSpace)
	if !r.ready(&resp.Diagnostics, name) {
		return
	}
	if strings.HasPrefix(prior.str(aPendingOp), "formtx_") {
		next, to, stop := r.readTransition(ctx, req, resp, prior, form, &resp.Diagnostics)
		if stop {
			return
		}
		prior, form = next, to
	}
	want := client.Expect{Ref: form.Ref, Name: name, Space: space}
	keepMarker := false
	if op := prior.str(aPendingOp); strings.HasPrefix(op, "op_") {
		var stop bool
		keepMarker, stop = r.consultOperation(ctx, prior, form, op, &resp.Diagnostics)
		if stop {
			return
		}
	}
	res, err := r.configured.client.Get(ctx, want)
	if client.IsNotFound(err) {
		if keepMarker {
			return // "not yet", not a deletion: state unchanged
		}
		moved, to, stop := r.movedTo(ctx, prior, form, &resp.Diagnostics)
		if stop {
			return
		}
		if moved == nil {
			resp.State.RemoveResource(ctx)
			return
		}
		r.movedWarning(prior, form, to, moved, &resp.Diagnostics)
		res, err, form = moved, nil, to
	}
	if err != nil {
		rep := &report{summary: fmt.Sprintf("Failed to read %s %s", m.kind.Kind, name), typeName: m.typeName,
			space: space, name: name, ref: &form.Ref, pointer: "/metadata",
			what: "The host could not be read; the state was left unchanged."}
		rep.fence("Expected UID", prior.str(aUID)).fence("Operation", "")
		if op := prior.str(aPendingOp); op != "" {
			rep.opID = op
		}
		rep.withErr(err).add(&resp.Diagnostics)
		return
	}
	if !r.uidRule(prior, form, res, &resp.Diagnostics) {
		return
	}
	mode := adoptNull
	if form.DeclaresUpdate {
		mode = adoptAll
	}
	st, err := m.fromResource(prior, form, res, mode, &resp.Diagnostics)
	if err != nil {
		rep := &report{summary: fmt.Sprintf("Host response for %s %s is not usable", m.kind.Kind, name), typeName: m.typeName,
			space: space, name: name, ref: &form.Ref, code: codeHostResponseInvalid, cause: err.Error(),
			what:   "The host's spec does not fit the resource's schema; the state was left unchanged.",
			repair: protocolInvalidRepair}
		rep.violatedAt(err).add(&resp.Diagnostics)
		return
	}
	if keepMarker {
		st[aPendingOp] = prior[aPendingOp]
	}
	r.driftWarning(res, form, &resp.Diagnostics)
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

// uidRule: a known state uid must equal the host's (docs/provider-design.md#uid-rule). On a mismatch
// the state is kept exactly as it was.
func (r *Resource) uidRule(prior values, form *model.Form, res *client.Resource, d *diag.Diagnostics) bool {
	want := prior.str(aUID)
	if want == "" || want == res.Metadata.UID {
		return true
	}
	r.uidMismatch(prior, form, want, res.Metadata.UID, res.Metadata.Generation, res.Metadata.Revision, d)
	return false
}

func (r *Resource) uidMismatch(prior values, form *model.Form, want, got, gen, rev string, d *diag.Diagnostics) {
	r.uidReport(prior, form, want, got, gen, rev).add(d)
}

func (r *Resource) uidReport(prior values, form *model.Form, want, got, gen, rev string) *report {
	m := r.kind.model
	name, space := prior.str(aName), prior.str(aSpace)
	p := path.Root(aUID)
	rep := &report{summary: fmt.Sprintf("%s %s/%s on the host is not the object this state tracks", m.kind.Kind, space, name),
		what: "The host serves another incarnation under this name (it was deleted and re-created outside this configuration). " +
			"The state was kept exactly as it was: it is neither re-bound to the new object nor removed.",
		typeName: m.typeName, space: space, name: name, ref: &form.Ref, pointer: "/metadata/uid", code: codeUIDMismatch, attr: &p,
		repair: "Choose one: (1) tofu state rm this resource and tofu import the new object; (2) restore the original object on the host; " +
			"(3) delete the host-side replacement and apply again."}
	rep.fence("Expected UID", want).fence("Current UID", got).fence("Current generation", gen).fence("Current revision", rev)
	return rep
}

// driftWarning reports relation drift the host shows on Ready (docs/provider-design.md#relation-drift).
func (r *Resource) driftWarning(res *client.Resource, form *model.Form, d *diag.Diagnostics) {
	reason, cond := driftReason(res.Status)
	if reason == "" {
		return
	}
	m := r.kind.model
	rep := &report{warning: true, summary: fmt.Sprintf("%s %s points at a resource that changed outside this configuration", m.kind.Kind, res.Metadata.Name),
		what:     "The host reports " + reason + " on the Ready condition. The next apply re-pins the relation (a revision Form is replaced).",
		typeName: m.typeName, space: res.Metadata.Space, name: res.Metadata.Name, ref: &form.Ref, code: codeRelationTargetChanged,
		repair: "Run tofu apply to re-pin; if the target was deleted, create it first."}
	if cond != nil {
		if cond.HostReason != nil {
			rep.hostCode = *cond.HostReason
		}
		if cond.Message != nil {
			rep.hostMsg = *cond.Message
		}
	}
	rep.add(d)
}

// consultOperation reads a pending operation once before the read (docs/provider-design.md#pending-operations).
// keep: the GET that follows keeps the marker (operation still running);
// stop: the read must end here with the state untouched.
func (r *Resource) consultOperation(ctx context.Context, prior values, form *model.Form, id string, d *diag.Diagnostics) (keep, stop bool) {
	m := r.kind.model
	name, space := prior.str(aName), prior.str(aSpace)
	base := report{typeName: m.typeName, space: space, name: name, ref: &form.Ref, opID: id}
	op, _, err := r.configured.client.GetOperation(ctx, id)
	switch {
	case client.IsCode(err, wire.CodeOperationNotFound):
		rep := base
		rep.warning, rep.summary = true, fmt.Sprintf("%s operation %s is no longer on the host", m.kind.Kind, id)
		rep.what = "The recorded operation has expired or is unknown; the resource is read as it is now."
		rep.withErr(err).add(d)
		return false, false
	case err != nil:
		rep := base
		rep.summary = fmt.Sprintf("Could not check %s operation %s", m.kind.Kind, id)
		rep.what = "The pending operation could not be read; the state was kept."
		if breaksProtocol(err) {
			rep.what = "The host's answer about the pending operation breaks the protocol; the state was kept."
		}
		rep.code = codeOperationResumeFailed
		rep.withErr(err).add(d)
		return false, true
	case !op.Done:
		rep := base
		rep.warning, rep.summary = true, fmt.Sprintf("%s %s is still changing on the host", m.kind.Kind, name)
		rep.what = "The host has not finished the operation recorded in pending_operation_id; the state keeps the marker and the next refresh checks again."
		rep.code = "accepted-without-representation (host)"
		rep.repair = "Run tofu apply or tofu refresh again later."
		rep.add(d)
		return true, false
	case op.Error != nil:
		rep := base
		rep.warning, rep.summary = true, fmt.Sprintf("%s operation %s ended with %s: %s", m.kind.Kind, id, op.Error.Code, op.Error.Message)
		rep.what = "The host finished the recorded operation with an error; the resource is read as it is now."
		rep.withErr(op.TerminalError()).add(d)
		return false, false
	}
	if isDeleteResult(op.Result) {
		return false, false // a finished delete: the ordinary read finds the name gone
	}
	// the result is verified as every representation is (docs/provider-design.md#lifecycle):
	// it names this resource under the recorded ref, with a uid of the grammar
	res, rerr := op.ResultResource()
	if rerr == nil {
		rerr = client.Verify(res, client.Expect{Ref: form.Ref, Name: name, Space: space})
	}
	if rerr != nil {
		rep := base
		rep.summary = fmt.Sprintf("Operation %s ended without a usable result", id)
		rep.what, rep.cause, rep.code, rep.repair = "The state was kept.", rerr.Error(), codeOperationResumeFailed, protocolInvalidRepair
		rep.violatedAt(rerr).add(d)
		return false, true
	}
	if uid := prior.str(aUID); uid != "" && uid != res.Metadata.UID {
		r.uidMismatch(prior, form, uid, res.Metadata.UID, res.Metadata.Generation, res.Metadata.Revision, d)
		return false, true
	}
	return false, false
}

// isDeleteResult recognizes a delete operation's terminal result ({"deleted": true}).
func isDeleteResult(raw []byte) bool {
	v, err := decodeJSON(raw)
	if err != nil {
		return false
	}
	m, ok := v.(map[string]any)
	_, has := m["deleted"]
	return ok && has && len(m) == 1
}
