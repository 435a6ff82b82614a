package takoform

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

func canonical(v any) ([]byte, error) { return wire.CanonicalValue(v) }

func (r *Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
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
	ctx, cancel := context.WithTimeout(ctx, timeout(prior, aDeleteTimeout, defaultDeleteTimeout))
	defer cancel()
	want := client.Expect{Ref: form.Ref, Name: name, Space: space}
	uid, gen := prior.str(aUID), prior.str(aGeneration)
	rep := &report{summary: fmt.Sprintf("Failed to delete %s %s", m.kind.Kind, name), typeName: m.typeName,
		space: space, name: name, ref: &form.Ref, pointer: "/metadata"}
	if gen == "" {
		// an accepted create never disclosed the generation: learn it first
		res, err := r.configured.client.Get(ctx, want)
		if client.IsNotFound(err) {
			r.deleteNotFound(ctx, prior, form, &resp.Diagnostics)
			return
		}
		if err != nil {
			rep.what = "The resource could not be read to learn its generation before deleting it."
			rep.withErr(err).add(&resp.Diagnostics)
			return
		}
		if uid != "" && res.Metadata.UID != uid {
			r.uidMismatch(prior, form, uid, res.Metadata.UID, res.Metadata.Generation, res.Metadata.Revision, &resp.Diagnostics)
			return
		}
		uid, gen = res.Metadata.UID, res.Metadata.Generation
	}
	rep.fence("Expected UID", uid).fence("Expected generation", gen)
	key, err := client.IdempotencyKey("delete", form.Ref, space, name, uid, gen, nil)
	if err != nil {
		rep.what, rep.cause, rep.code = "The idempotency key could not be computed.", err.Error(), codeInternal
		rep.add(&resp.Diagnostics)
		return
	}
	out, err := r.configured.client.Delete(ctx, want, gen, key)
	if err == nil && out.Operation != nil {
		var last *client.Operation
		last, err = r.configured.client.Poll(ctx, out.Operation)
		if err != nil {
			// accepted but unfinished: keep the state with the marker
			st := prior.clone()
			st[aPendingOp] = strVal(last.ID)
			rep.summary = fmt.Sprintf("%s %s was accepted for deletion but has not finished", m.kind.Kind, name)
			rep.what = "The host accepted the delete but it did not finish in time (" + errText("delete", err) + "). The state is kept with pending_operation_id so the next refresh observes the outcome."
			rep.opID, rep.code = last.ID, "accepted-without-representation (host)"
			rep.repair = "Run tofu destroy (or apply) again once the host has finished."
			rep.add(&resp.Diagnostics)
			r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
			return
		}
		err = last.TerminalError()
	}
	if err == nil {
		return
	}
	if client.IsCode(err, wire.CodeResourceNotFound) {
		r.deleteNotFound(ctx, prior, form, &resp.Diagnostics) // already gone, or moved to another version
		return
	}
	rep.what = refusedOr(err, "delete", "the resource stays in state.")
	rep.withErr(err).add(&resp.Diagnostics)
}
