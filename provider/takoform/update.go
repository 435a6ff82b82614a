package takoform

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/takokit/takokit/provider/internal/client"
)

// configOnly are attributes whose change never needs a host call.
var configOnly = []string{aCreateTimeout, aUpdateTimeout, aDeleteTimeout, aFormTransition, aMainModule, aModules}

func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	m := r.kt.m
	plan, err1 := readValues(ctx, r.kt.ot, req.Plan.Raw)
	prior, err2 := readValues(ctx, r.kt.ot, req.State.Raw)
	if err1 != nil || err2 != nil || prior == nil {
		resp.Diagnostics.AddError("Could not read the plan or prior state", fmt.Sprint(err1, err2))
		return
	}
	// On any failure the state written is the prior state (provider.md §5.4).
	resp.State.Raw = req.State.Raw
	form := r.stateForm(prior, &resp.Diagnostics)
	if form == nil {
		return
	}
	name, space := prior.str(aName), prior.str(aSpace)
	if pref, ok := refOf(plan); ok && pref != form.Ref {
		to, found := m.cat.Form(pref)
		if !found {
			resp.Diagnostics.AddError("Planned Form is not carried", pref.String()+" (provider bug)")
			return
		}
		if !r.ready(&resp.Diagnostics, name) {
			return
		}
		r.updateTransition(ctx, req, resp, prior, plan, form, to)
		return
	}
	rep := &report{summary: fmt.Sprintf("Failed to update %s %s", m.kind.Kind, name), typeName: m.typeName,
		space: space, name: name, ref: &form.Ref, pointer: "/spec"}
	rep.fence("Expected UID", prior.str(aUID)).fence("Expected generation", prior.str(aGeneration)).fence("Expected revision", prior.str(aRevision))
	newSpec, err := encodeSpec(form, plan)
	if err != nil {
		rep.what, rep.cause, rep.code = "The desired values could not be encoded.", err.Error(), codeInternal
		rep.add(&resp.Diagnostics)
		return
	}
	oldSpec, err := encodeSpec(form, prior)
	repin := prior.str(aDrift) != "" && !plan.known(aDrift)
	if err == nil && reflect.DeepEqual(jcs(newSpec), jcs(oldSpec)) && !repin {
		// only configuration-only attributes changed: no request
		st := prior.clone()
		for _, a := range configOnly {
			if v, ok := plan[a]; ok {
				st[a] = v
			}
		}
		for _, f := range m.fields {
			st[f.Attr] = plan[f.Attr] // equal content; keep the configured spelling
		}
		r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
		return
	}
	if !form.DeclaresUpdate && !repin {
		rep.what, rep.code = "A desired change reached Update on a Form that does not declare update; it should have planned a replacement.", codeInternal
		rep.repair = "Report this provider bug; as a workaround taint the resource."
		rep.add(&resp.Diagnostics)
		return
	}
	if !r.ready(&resp.Diagnostics, name) {
		return
	}
	probeOp := "update"
	if !form.DeclaresUpdate {
		probeOp = ""
	}
	tmo := timeout(plan, aUpdateTimeout, defaultUpdateTimeout)
	if !form.DeclaresUpdate {
		tmo = timeout(plan, aCreateTimeout, defaultCreateTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, tmo)
	defer cancel()
	f := fences{uid: prior.str(aUID), generation: prior.str(aGeneration)}
	out, err := r.putSpec(ctx, form, name, space, newSpec, f, probeOp)
	if err != nil {
		rep.what = "The host refused the update; the state keeps the prior values."
		rep.withErr(err).add(&resp.Diagnostics)
		return
	}
	res := out.Resource
	if out.Operation != nil {
		want := client.Expect{Ref: form.Ref, Name: name, Space: space}
		var last *client.Operation
		var unfinished bool
		res, last, unfinished, err = r.settle(ctx, out.Operation, want)
		if unfinished {
			st := prior.clone()
			st[aPendingOp] = strVal(last.ID)
			rep.summary = fmt.Sprintf("%s %s was accepted by the host but has not finished", m.kind.Kind, name)
			rep.what = "The host accepted the update but its outcome was not known in time (" + errText(err) + "). The state keeps the prior values and records the operation; the next refresh observes the outcome."
			rep.opID, rep.code = last.ID, "accepted-without-representation (host)"
			rep.repair = "Run tofu apply again once the host has finished."
			rep.add(&resp.Diagnostics)
			r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
			return
		}
		if err != nil {
			rep.what = "The host accepted the update and then ended its operation with an error; the state keeps the prior values."
			rep.withErr(err).add(&resp.Diagnostics)
			return
		}
	}
	if res.Metadata.UID != f.uid && f.uid != "" {
		r.uidMismatch(prior, form, f.uid, res.Metadata.UID, res.Metadata.Generation, res.Metadata.Revision, &resp.Diagnostics)
		return
	}
	st, err := m.fromResource(plan, form, res, adoptUnknown, &resp.Diagnostics)
	if err != nil {
		rep.what, rep.code = "The host's representation could not be decoded.", codeHostResponseInvalid
		rep.withErr(err).add(&resp.Diagnostics)
		return
	}
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

// jcs is the canonical text of a spec, for equality.
func jcs(spec map[string]any) string {
	b, err := canonical(spec)
	if err != nil {
		return fmt.Sprint(spec)
	}
	return string(b)
}
