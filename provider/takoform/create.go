package takoform

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m := r.kt.m
	plan, err := readValues(ctx, r.kt.ot, req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Could not read the plan", err.Error())
		return
	}
	if !r.ready(&resp.Diagnostics, plan.str(aName)) {
		return
	}
	ref, _ := refOf(plan)
	form, ok := m.cat.Form(ref)
	if !ok {
		form = r.createForm(plan)
		m.setRef(plan, form.Ref)
	}
	// values planned unknown are derived now with the functions the plan uses
	if !plan.known(aSpace) && r.pd.space != "" {
		plan[aSpace] = types.StringValue(r.pd.space)
	}
	if !plan.known(aName) && m.revision && plan.known(aRevisionOwner) {
		plan[aName] = m.revisionName(form, plan, plan.str(aRevisionOwner))
	}
	name, space := plan.str(aName), plan.str(aSpace)
	if name == "" || space == "" {
		(&report{summary: fmt.Sprintf("Could not resolve the name or space of %s", m.kind.Kind), typeName: m.typeName,
			code: codeRevisionNameUnresolved, what: "The name or space was still unknown at apply; nothing was sent.",
			repair: "Set name (or revision_owner with known content) and space, or the provider's default space."}).add(&resp.Diagnostics)
		return
	}
	rep := &report{summary: fmt.Sprintf("Failed to create %s %s", m.kind.Kind, name), typeName: m.typeName,
		space: space, name: name, ref: &form.Ref, pointer: "/spec"}
	ctx, cancel := context.WithTimeout(ctx, timeout(plan, aCreateTimeout, defaultCreateTimeout))
	defer cancel()
	if m.bundle && plan.known(aModules) {
		if err := r.uploadBundle(ctx, plan, form); err != nil {
			rep.summary = fmt.Sprintf("Bundle upload for %s %s failed", m.kind.Kind, name)
			rep.what = "The local module files could not be uploaded and committed; no resource was touched."
			rep.pointer, rep.code = "/spec/manifestDigest", codeBundleUploadFailed
			rep.withErr(err)
			if rep.code != "" {
				rep.code = codeBundleUploadFailed + " (" + rep.code + ")"
			} else {
				rep.code = codeBundleUploadFailed
			}
			rep.add(&resp.Diagnostics)
			return
		}
	}
	spec, err := encodeSpec(form, plan)
	if err != nil {
		rep.what, rep.cause, rep.code = "The desired values could not be encoded.", err.Error(), codeInternal
		rep.add(&resp.Diagnostics)
		return
	}
	out, err := r.putSpec(ctx, form, name, space, spec, fences{}, "create")
	if err != nil {
		r.createFailed(ctx, rep, plan, form, err, &resp.Diagnostics, resp)
		return
	}
	want := client.Expect{Ref: form.Ref, Name: name, Space: space}
	res := out.Resource
	if out.Operation != nil {
		var last *client.Operation
		var unfinished bool
		res, last, unfinished, err = r.settle(ctx, out.Operation, want)
		if unfinished {
			r.writeUnfinished(ctx, plan, form, last, err, resp)
			return
		}
		if err != nil {
			rep.what = "The host accepted the create and then ended its operation with an error; nothing was created."
			rep.withErr(err).add(&resp.Diagnostics)
			return
		}
	}
	st, err := m.fromResource(plan, form, res, adoptUnknown, &resp.Diagnostics)
	if err != nil {
		rep.what, rep.code = "The host's representation could not be decoded.", codeHostResponseInvalid
		rep.withErr(err).add(&resp.Diagnostics)
		return
	}
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

// createForm is the Form a create uses: the configured definition version or the newest.
func (r *Resource) createForm(plan values) *catalog.Form {
	if v := plan.str(aFormDefVersion); v != "" {
		if f, ok := r.kt.m.form(v); ok {
			return f
		}
	}
	return r.kt.m.newest
}

// writeUnfinished records an accepted-but-unfinished create (provider.md §5.7) as a
// warning, so OpenTofu does not taint the object and the next refresh finishes it.
func (r *Resource) writeUnfinished(ctx context.Context, plan values, form *catalog.Form, last *client.Operation, why error, resp *resource.CreateResponse) {
	m := r.kt.m
	name := plan.str(aName)
	opID, uid := "", ""
	if last != nil {
		opID, uid = last.ID, last.HostUID()
	}
	st := m.unfinished(plan, form, uid, "", "", opID)
	rep := &report{warning: true, summary: fmt.Sprintf("%s %s was accepted by the host but has not finished", m.kind.Kind, name),
		what: "The host accepted the create but its outcome was not known before the create finished (" + errText(why) + "). " +
			"The state records the operation in pending_operation_id with every output null; the next plan or apply picks it up and finishes the resource in place.",
		typeName: m.typeName, space: plan.str(aSpace), name: name, ref: &form.Ref, opID: opID,
		code:   "accepted-without-representation (host)",
		repair: "Run tofu apply again (or tofu refresh) once the host has finished; the resource is not re-created."}
	rep.fence("Current UID", uid)
	rep.add(&resp.Diagnostics)
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

func errText(err error) string {
	switch {
	case err == nil:
		return "no result"
	case errors.Is(err, context.DeadlineExceeded):
		return "create_timeout ran out while polling"
	case errors.Is(err, context.Canceled):
		return "the run was interrupted while polling"
	}
	return err.Error()
}

// createFailed reports a refused create. A transport failure after the one resend is
// recovered as accepted-unfinished; a taken name gets the import repair.
func (r *Resource) createFailed(ctx context.Context, rep *report, plan values, form *catalog.Form, err error, d *diag.Diagnostics, resp *resource.CreateResponse) {
	var ae *applyError
	errors.As(err, &ae)
	if ae != nil && ae.stage == stagePut && client.IsTransport(err) {
		r.writeUnfinished(ctx, plan, form, nil, err, resp)
		return
	}
	rep.what = "The host refused the create; nothing was written to state."
	if ae != nil && ae.stage == stageDiscovery {
		rep.summary = "Host discovery failed"
	}
	rep.withErr(err)
	taken := ae != nil && ((ae.stage == stagePrepare && client.IsCode(err, wire.CodeInvalidArgument)) ||
		(ae.stage == stagePut && client.IsCode(err, wire.CodeGenerationConflict)))
	if taken {
		name, space := plan.str(aName), plan.str(aSpace)
		if res, _, lerr := r.findByName(ctx, space, name); lerr == nil && res != nil {
			rep.what = fmt.Sprintf("The name %q is already taken on the host in space %q (uid %s, under %s@%s); nothing was written to state.",
				name, space, res.Metadata.UID, res.Form.FormRef.Kind, res.Form.FormRef.DefinitionVersion)
			rep.repair = fmt.Sprintf("Adopt it with: tofu import <address> %s/%s — or choose another name.", space, name)
		}
	}
	rep.add(d)
}
