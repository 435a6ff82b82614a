package takoform

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// Create runs docs/provider-design.md#create in named steps: resolve what the plan left
// unknown, upload local bundle files, create on the host, write the state. Each step
// that fails builds its own diagnostic where it fails.
func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, err := readValues(ctx, r.kind.objectType, req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("Could not read the plan", err.Error())
		return
	}
	if !r.ready(&resp.Diagnostics, plan.str(aName)) {
		return
	}
	c, ok := r.resolveCreate(plan, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout(plan, aCreateTimeout, defaultCreateTimeout))
	defer cancel()
	if !r.uploadForCreate(ctx, c, &resp.Diagnostics) {
		return
	}
	res, ok := r.createOnHost(ctx, c, resp)
	if !ok {
		return
	}
	st, err := r.kind.model.fromResource(plan, c.form, res, adoptUnknown, &resp.Diagnostics)
	if err != nil {
		c.failure("The host's representation could not be decoded.").withLocalCode(codeHostResponseInvalid, err).violatedAt(err).add(&resp.Diagnostics)
		return
	}
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

// createCall is one create: the plan with every value apply derives filled in.
type createCall struct {
	r           *Resource
	plan        values
	form        *model.Form
	name, space string
}

// failure is the diagnostic of a failed create step, built fresh for each failure.
func (c *createCall) failure(what string) *report {
	m := c.r.kind.model
	return &report{summary: fmt.Sprintf("Failed to create %s %s", m.kind.Kind, c.name), what: what,
		typeName: m.typeName, space: c.space, name: c.name, ref: &c.form.Ref, pointer: "/spec"}
}

// resolveCreate derives what the plan left unknown (ref, space, revision name) with the
// functions the plan uses.
func (r *Resource) resolveCreate(plan values, d *diag.Diagnostics) (*createCall, bool) {
	m := r.kind.model
	ref, _ := refOf(plan)
	form, ok := m.cat.Form(ref)
	if !ok {
		// the plan's ref attributes stay as planned: every state Create writes sets
		// them from form (unfinished) or from the host's answer, which putSpec holds
		// to form.Ref (fromResource)
		form = r.createForm(plan)
	}
	if !plan.known(aSpace) && r.configured.space != "" {
		plan[aSpace] = types.StringValue(r.configured.space)
	}
	if !plan.known(aName) && m.revision && plan.known(aRevisionOwner) {
		plan[aName] = m.revisionName(form, plan, plan.str(aRevisionOwner))
	}
	c := &createCall{r: r, plan: plan, form: form, name: plan.str(aName), space: plan.str(aSpace)}
	if c.name == "" || c.space == "" {
		(&report{summary: fmt.Sprintf("Could not resolve the name or space of %s", m.kind.Kind), typeName: m.typeName,
			name: c.name, space: c.space, code: codeRevisionNameUnresolved, what: "The name or space was still unknown at apply; nothing was sent.",
			repair: "Set name (or revision_owner with known content) and space, or the provider's default space."}).add(d)
		return nil, false
	}
	return c, true
}

// uploadForCreate uploads and commits local bundle files before the resource request
// (docs/provider-design.md#bundles); other Forms have nothing to upload.
func (r *Resource) uploadForCreate(ctx context.Context, c *createCall, d *diag.Diagnostics) bool {
	m := r.kind.model
	if m.bundle == nil || !c.plan.known(m.bundle.list) {
		return true
	}
	err := r.uploadBundle(ctx, c.plan, c.form)
	if err == nil {
		return true
	}
	rep := (&report{summary: fmt.Sprintf("Bundle upload for %s %s failed", m.kind.Kind, c.name),
		what:     "The local " + m.bundle.what() + " files could not be uploaded and committed; no resource was touched.",
		typeName: m.typeName, space: c.space, name: c.name, ref: &c.form.Ref, pointer: "/spec/manifestDigest",
	}).withLocalCode(codeBundleUploadFailed, err)
	var changed *filesChanged
	switch {
	case errors.As(err, &changed):
		rep.repair = "Run the plan again so it describes the files as they are now, then apply that plan; keep the files unchanged between plan and apply."
	case rep.repair == "":
		rep.repair = "Check that every file of the bundle is readable and unchanged since plan, then plan and apply again."
	}
	rep.add(d)
	return false
}

// createOnHost encodes the spec, prepares and PUTs it, and settles an accepted
// operation. ok is false when a diagnostic (or an unfinished state) was written.
func (r *Resource) createOnHost(ctx context.Context, c *createCall, resp *resource.CreateResponse) (*client.Resource, bool) {
	d := &resp.Diagnostics
	spec, err := encodeSpec(c.form, c.plan)
	if err != nil {
		c.failure("The desired values could not be encoded; nothing was sent.").unencodable(err).add(d)
		return nil, false
	}
	out, err := r.putSpec(ctx, c.form, c.name, c.space, spec, fences{}, "create")
	if err != nil {
		r.createFailed(ctx, c, err, resp)
		return nil, false
	}
	if out.Operation == nil {
		return out.Resource, true
	}
	res, last, unfinished, err := r.settle(ctx, out.Operation, client.Expect{Ref: c.form.Ref, Name: c.name, Space: c.space})
	switch {
	case unfinished:
		r.writeUnfinished(ctx, c.plan, c.form, last, err, resp)
		return nil, false
	case err != nil:
		c.failure("The host accepted the create and then ended its operation with an error; nothing was created.").withErr(err).add(d)
		return nil, false
	}
	return res, true
}

// createForm is the Form a create uses: the configured definition version or the newest.
func (r *Resource) createForm(plan values) *model.Form {
	if v := plan.str(aFormDefVersion); v != "" {
		if f, ok := r.kind.model.form(v); ok {
			return f
		}
	}
	return r.kind.model.newest
}

// writeUnfinished records an accepted-but-unfinished create
// (docs/provider-design.md#accepted-unfinished) as a warning, so OpenTofu does not taint
// the object and the next refresh finishes it.
func (r *Resource) writeUnfinished(ctx context.Context, plan values, form *model.Form, last *client.Operation, why error, resp *resource.CreateResponse) {
	m := r.kind.model
	name := plan.str(aName)
	opID, uid := "", ""
	if last != nil {
		opID, uid = last.ID, last.HostUID()
	}
	st := m.unfinished(plan, form, uid, "", "", opID)
	kept := "The state records the operation in pending_operation_id with every output null; the next plan or apply picks it up and finishes the resource in place."
	if opID == "" {
		kept = "No answer named an operation, so the state records the resource by its name with every output null; the next refresh reads it from the host and finishes it in place (or drops it, if the host has no such resource)."
	}
	rep := &report{warning: true, typeName: m.typeName, space: plan.str(aSpace), name: name, ref: &form.Ref, opID: opID}
	if last != nil {
		rep.summary = fmt.Sprintf("%s %s was accepted by the host but has not finished", m.kind.Kind, name)
		rep.what = "The host accepted the create but its outcome was not known before the create finished (" + errText("create", why) + "). " + kept
		rep.code = "accepted-without-representation (host)"
		rep.repair = "Run tofu apply again (or tofu refresh) once the host has finished; the resource is not re-created."
	} else {
		// No answer came at all (the PUT and its one resend were cut off): the host may
		// never have seen the create, so the warning does not say it accepted it.
		rep.summary = fmt.Sprintf("%s %s may or may not have been created: the host's answers were lost", m.kind.Kind, name)
		rep.what = "The create was sent, and resent once, but no complete answer came back (" + errText("create", why) + "), so whether the host created the resource is not known. " + kept
		rep.code = "answer-lost (transport)"
		rep.repair = "Run tofu apply again (or tofu refresh) once the host answers; the refresh decides from what the host holds, and the resource is never created twice."
	}
	rep.fence("Current UID", uid)
	rep.add(&resp.Diagnostics)
	r.setState(ctx, &resp.State.Raw, st, &resp.Diagnostics)
}

func errText(op string, err error) string {
	switch {
	case err == nil:
		return "no result"
	case errors.Is(err, context.DeadlineExceeded):
		return op + "_timeout ran out while polling"
	case errors.Is(err, context.Canceled):
		return "the run was interrupted while polling"
	}
	return err.Error()
}

// createFailed reports a refused create. A transport failure after the one resend is
// recovered as accepted-unfinished; a taken name gets the import repair.
func (r *Resource) createFailed(ctx context.Context, c *createCall, err error, resp *resource.CreateResponse) {
	var ae *applyError
	errors.As(err, &ae)
	if ae != nil && ae.stage == stagePut && client.IsTransport(err) {
		r.writeUnfinished(ctx, c.plan, c.form, nil, err, resp)
		return
	}
	rep := c.failure(refusedOr(err, "create", "nothing was written to state.")).withErr(err)
	r.stoppedAtDiscovery(rep, err, "create", "nothing was written to state.")
	taken := ae != nil && ((ae.stage == stagePrepare && client.IsCode(err, wire.CodeInvalidArgument)) ||
		(ae.stage == stagePut && client.IsCode(err, wire.CodeGenerationConflict)))
	if taken {
		if res, _, lerr := r.findByName(ctx, c.space, c.name, wire.FormRef{}); lerr == nil && res != nil {
			rep.what = fmt.Sprintf("The name %q is already taken on the host in space %q (uid %s, under %s@%s); nothing was written to state.",
				c.name, c.space, res.Metadata.UID, res.Form.FormRef.Kind, res.Form.FormRef.DefinitionVersion)
			rep.repair = fmt.Sprintf("Adopt it with: tofu import <address> %s/%s — or choose another name.", c.space, c.name)
		}
	}
	rep.add(&resp.Diagnostics)
}
