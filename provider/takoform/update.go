package takoform

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// configOnly are attributes whose change never needs a host call.
var configOnly = []string{aCreateTimeout, aUpdateTimeout, aDeleteTimeout, aFormTransition, aMainModule, aModules, aFiles}

// Update runs docs/provider-design.md#update in named steps: a transition goes its own
// way; a change confined to configuration-only attributes makes no request; otherwise
// the spec is PUT under the recorded ref and the answer written. On any failure the
// state written is the prior state.
func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, err1 := readValues(ctx, r.kind.objectType, req.Plan.Raw)
	prior, err2 := readValues(ctx, r.kind.objectType, req.State.Raw)
	if err1 != nil || err2 != nil || prior == nil {
		resp.Diagnostics.AddError("Could not read the plan or prior state", fmt.Sprint(err1, err2))
		return
	}
	resp.State.Raw = req.State.Raw
	form := r.stateForm(prior, &resp.Diagnostics)
	if form == nil {
		return
	}
	if pref, ok := refOf(plan); ok && pref != form.Ref {
		r.updateToOtherRef(ctx, req, resp, prior, plan, form, pref)
		return
	}
	u := &updateCall{r: r, plan: plan, prior: prior, form: form, name: prior.str(aName), space: prior.str(aSpace),
		repin: prior.str(aDrift) != "" && !plan.known(aDrift)}
	newSpec, err := encodeSpec(form, plan)
	if err != nil {
		u.failure("The desired values could not be encoded; nothing was sent and the state keeps the prior values.").unencodable(err).add(&resp.Diagnostics)
		return
	}
	if u.onlyConfigChanged(newSpec) {
		r.setState(ctx, &resp.State.Raw, u.configOnlyState(), &resp.Diagnostics)
		return
	}
	if !form.DeclaresUpdate && !u.repin {
		rep := u.failure("A desired change reached Update on a Form that does not declare update; it should have planned a replacement. Nothing was sent; the state keeps the prior values.")
		rep.code, rep.repair = codeInternal, "Report this provider bug; as a workaround, taint the resource (tofu taint <address>) so the next apply replaces it."
		rep.add(&resp.Diagnostics)
		return
	}
	if !r.ready(&resp.Diagnostics, u.name) {
		return
	}
	res, ok := u.updateOnHost(ctx, newSpec, resp)
	if !ok {
		return
	}
	if want := prior.str(aUID); want != "" && res.Metadata.UID != want {
		r.uidMismatch(prior, form, want, res.Metadata.UID, res.Metadata.Generation, res.Metadata.Revision, &resp.Diagnostics)
		return
	}
	st, err := r.kind.model.fromResource(plan, form, res, adoptUnknown, &resp.Diagnostics)
	if err != nil {
		u.failure("The host's representation could not be decoded.").withLocalCode(codeHostResponseInvalid, err).violatedAt(err).add(&resp.Diagnostics)
		return
	}
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

// updateToOtherRef hands a planned ref change (a Form transition) to the transition path.
func (r *Resource) updateToOtherRef(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse, prior, plan values, form *model.Form, pref wire.FormRef) {
	to, found := r.kind.model.cat.Form(pref)
	if !found {
		resp.Diagnostics.AddError("Planned Form is not carried", pref.String()+" (provider bug)")
		return
	}
	if !r.ready(&resp.Diagnostics, prior.str(aName)) {
		return
	}
	r.updateTransition(ctx, req, resp, prior, plan, form, to)
}

// updateCall is one in-place update under the recorded ref.
type updateCall struct {
	r           *Resource
	plan, prior values
	form        *model.Form
	name, space string
	repin       bool // relation drift recorded: a re-pin PUT even without a spec change
}

// failure is the diagnostic of a failed update step, with the fences the update sends.
func (u *updateCall) failure(what string) *report {
	m := u.r.kind.model
	rep := &report{summary: fmt.Sprintf("Failed to update %s %s", m.kind.Kind, u.name), what: what,
		typeName: m.typeName, space: u.space, name: u.name, ref: &u.form.Ref, pointer: "/spec"}
	return rep.fence("Expected UID", u.prior.str(aUID)).fence("Expected generation", u.prior.str(aGeneration)).
		fence("Expected revision", u.prior.str(aRevision))
}

// onlyConfigChanged: the planned spec equals the prior spec and no re-pin is due.
func (u *updateCall) onlyConfigChanged(newSpec map[string]any) bool {
	oldSpec, err := encodeSpec(u.form, u.prior)
	return err == nil && !u.repin && reflect.DeepEqual(jcs(newSpec), jcs(oldSpec))
}

// configOnlyState is the prior state with the new configuration-only values.
func (u *updateCall) configOnlyState() values {
	st := u.prior.clone()
	for _, a := range configOnly {
		if v, ok := u.plan[a]; ok {
			st[a] = v
		}
	}
	for _, f := range u.r.kind.model.fields {
		st[f.Attr] = u.plan[f.Attr] // equal content; keep the configured spelling
	}
	return st
}

// updateOnHost prepares and PUTs the spec with the update fences and settles an
// accepted operation. ok is false when a diagnostic (or a pending state) was written.
func (u *updateCall) updateOnHost(ctx context.Context, spec map[string]any, resp *resource.UpdateResponse) (*client.Resource, bool) {
	r, form := u.r, u.form
	probeOp, timeoutOp, tmo := "update", "update", timeout(u.plan, aUpdateTimeout, defaultUpdateTimeout)
	if !form.DeclaresUpdate { // a re-pin of a Form without update
		probeOp, timeoutOp, tmo = "", "create", timeout(u.plan, aCreateTimeout, defaultCreateTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, tmo)
	defer cancel()
	out, err := r.putSpec(ctx, form, u.name, u.space, spec, fences{uid: u.prior.str(aUID), generation: u.prior.str(aGeneration)}, probeOp)
	if err != nil {
		rep := u.failure(refusedOr(err, "update", "the state keeps the prior values.")).withErr(err)
		r.stoppedAtDiscovery(rep, err, "update", "the state keeps the prior values.")
		rep.add(&resp.Diagnostics)
		return nil, false
	}
	if out.Operation == nil {
		return out.Resource, true
	}
	res, last, unfinished, err := r.settle(ctx, out.Operation, client.Expect{Ref: form.Ref, Name: u.name, Space: u.space})
	switch {
	case unfinished:
		rep := u.failure("The host accepted the update but its outcome was not known in time (" + errText(timeoutOp, err) + "). The state keeps the prior values and records the operation; the next refresh observes the outcome.")
		rep.summary = fmt.Sprintf("%s %s was accepted by the host but has not finished", r.kind.model.kind.Kind, u.name)
		rep.opID, rep.code = last.ID, "accepted-without-representation (host)"
		rep.repair = "Run tofu apply again once the host has finished."
		rep.add(&resp.Diagnostics)
		st := u.prior.clone()
		st[aPendingOp] = strVal(last.ID)
		r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
		return nil, false
	case err != nil:
		u.failure("The host accepted the update and then ended its operation with an error; the state keeps the prior values.").withErr(err).add(&resp.Diagnostics)
		return nil, false
	}
	return res, true
}

// jcs is the canonical text of a spec, for equality.
func jcs(spec map[string]any) string {
	b, err := canonical(spec)
	if err != nil {
		return fmt.Sprint(spec)
	}
	return string(b)
}
