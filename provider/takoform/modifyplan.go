package takoform

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
)

// ModifyPlan plans the exact FormRef, the space, the version rules, replacement and
// the whole-spec check (docs/provider-design.md#desired-fields). It makes no request. The
// plan-time support check and transitions slot in at planSupport and
// planTransition.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy: nothing to plan, no request
	}
	d := &resp.Diagnostics
	plan, err := readValues(ctx, r.kind.objectType, req.Plan.Raw)
	if err != nil {
		d.AddError("Could not read the plan", err.Error())
		return
	}
	config, _ := readValues(ctx, r.kind.objectType, req.Config.Raw)
	var prior values
	if !req.State.Raw.IsNull() {
		if prior, err = readValues(ctx, r.kind.objectType, req.State.Raw); err != nil {
			d.AddError("Could not read the prior state", err.Error())
			return
		}
	}
	var ruled values // the plan as the kind's plan rules leave it, when they change it
	if prior != nil && r.applyPlanRules(plan, prior, config, resp) {
		ruled = plan.clone()
	}
	var form *model.Form
	if prior == nil {
		form = r.planCreate(plan, config, d)
	} else {
		kept, _ := req.Private.GetKey(ctx, privateTransitionKey)
		form = r.planExisting(ctx, plan, prior, config, kept, d)
	}
	if form == nil || d.HasError() {
		if ruled != nil && !d.HasError() {
			r.setState(ctx, &resp.Plan.Raw, ruled, d) // left to the next round, with the rules applied
		}
		return
	}
	r.planVersionRules(plan, form, d)
	r.planBundle(plan, config, form, d)
	if d.HasError() {
		return
	}
	r.kind.model.planRevisionName(form, plan, config)
	if prior != nil {
		r.planReplace(plan, prior, form, resp)
	}
	r.planWholeSpec(plan, form, d)
	if d.HasError() {
		return
	}
	// docs/provider-design.md#plan-time-support: a create or an in-place update checks its planned ref; a replacement is
	// checked when OpenTofu plans it again as a create (prior null, default create ref).
	if prior == nil || (!sameValues(plan, prior) && len(resp.RequiresReplace) == 0) {
		r.planSupport(ctx, plan, form, d)
		if d.HasError() {
			return
		}
	}
	r.setState(ctx, &resp.Plan.Raw, plan, d)
}

func (r *Resource) planCreate(plan, config values, d *diag.Diagnostics) *model.Form {
	m := r.kind.model
	form := m.newest
	if v := config.str(aFormDefVersion); v != "" {
		f, ok := m.form(v)
		if !ok {
			return nil // the attribute validator reports it
		}
		form = f
	} else if config != nil && !config.known(aFormDefVersion) && !isNullVal(config, aFormDefVersion) {
		return nil // unknown version: leave the plan to the next round
	}
	m.setRef(plan, form.Ref)
	if !config.known(aSpace) {
		switch {
		case isUnknownVal(config, aSpace):
		case r.configured != nil && r.configured.space != "":
			plan[aSpace] = types.StringValue(r.configured.space)
		case r.configured == nil:
			plan[aSpace] = types.StringUnknown()
		default:
			p := path.Root(aSpace)
			which := m.kind.Kind + " " + plan.str(aName)
			if plan.str(aName) == "" { // a revision's name waits for its space: name it by its owner
				which = fmt.Sprintf("%s (revision_owner %s)", m.kind.Kind, plan.str(aRevisionOwner))
			}
			(&report{summary: "No space for " + which, typeName: m.typeName,
				name: plan.str(aName), code: codeSpaceMissing, attr: &p,
				what:   "The resource sets no space and the provider has no default space.",
				repair: "Set space on the resource, or space in the provider block (or TAKOFORM_SPACE)."}).add(d)
			return nil
		}
	}
	return form
}

func (r *Resource) planExisting(ctx context.Context, plan, prior, config values, kept []byte, d *diag.Diagnostics) *model.Form {
	m := r.kind.model
	form := r.stateForm(prior, d)
	if form == nil {
		return nil
	}
	if replacedByIdentity(prior, config) {
		// a new name or space is a new resource: it is planned and checked under the ref
		// the configuration asks for, not the one in state (docs/provider-design.md#recorded-ref)
		return r.planCreate(plan, config, d)
	}
	if marker := config.str(aFormTransition); marker != "" {
		if to, handled := r.planTransition(ctx, plan, prior, config, form, marker, kept, d); handled {
			if to != nil {
				r.repinDrift(plan, prior)
			}
			return to
		}
	}
	if v := config.str(aFormDefVersion); v != "" && v != form.Ref.DefinitionVersion {
		p := path.Root(aFormDefVersion)
		markers := []string{}
		for _, t := range m.markers {
			if t.From == form.Ref && t.To.DefinitionVersion == v {
				markers = append(markers, t.Marker)
			}
		}
		what := fmt.Sprintf("The resource is recorded under %s@%s; moving it to %s never happens by editing this attribute alone.", form.Ref.Kind, form.Ref.DefinitionVersion, v)
		back := fmt.Sprintf("set form_definition_version back to %q (or remove it)", form.Ref.DefinitionVersion)
		repair := "No Form transition moves this resource there: " + back + ", or replace the resource under a new name."
		if len(markers) > 0 {
			what += " Declared marker(s) for this change: " + strings.Join(markers, ", ") + "."
			repair = fmt.Sprintf("Set form_transition = %q, or %s.", markers[0], back)
		} else {
			what += " No Form transition is declared for this pair."
		}
		(&report{summary: fmt.Sprintf("Changing the definition version of %s %s needs a Form transition", m.kind.Kind, prior.str(aName)),
			typeName: m.typeName, space: prior.str(aSpace), name: prior.str(aName), ref: &form.Ref, attr: &p,
			code: codeVersionChangeNeedsTrans, what: what, repair: repair}).add(d)
		return nil
	}
	m.setRef(plan, form.Ref)
	r.repinDrift(plan, prior)
	return form
}

// replacedByIdentity: the configuration names another name or space than the state,
// so OpenTofu replaces the resource whatever else changes.
func replacedByIdentity(prior, config values) bool {
	return (config.known(aName) && config.str(aName) != prior.str(aName)) ||
		(config.known(aSpace) && config.str(aSpace) != prior.str(aSpace))
}

// repinDrift plans the re-pin of a recorded relation drift. (The space an existing
// resource's configuration leaves null is its prior space: the proposed state carries
// it, and the keep rule restores it where the framework marked it unknown.)
func (r *Resource) repinDrift(plan, prior values) {
	if prior.known(aDrift) {
		plan[aDrift] = types.StringNull() // makes the plan non-empty: a re-pin (docs/provider-design.md#relation-drift)
		r.planHostAnswerUnknown(plan)
	}
}

// planVersionRules: a field the planned ref does not declare must be null or its
// default, and is planned as state writes it; a field it requires must be set.
func (r *Resource) planVersionRules(plan values, form *model.Form, d *diag.Diagnostics) {
	m := r.kind.model
	for i := range m.fields {
		f := &m.fields[i]
		v := plan[f.Attr]
		decl, declared := form.Field(f.Wire)
		if declared {
			if decl.Required && v != nil && v.IsNull() {
				p := path.Root(f.Attr)
				d.AddAttributeError(p, "Missing required argument",
					fmt.Sprintf("%s is required by %s %s.", f.Attr, form.Ref.Kind, form.Ref.DefinitionVersion))
			}
			continue
		}
		def, _ := decodeDefault(f)
		if v != nil && !v.IsNull() && !v.IsUnknown() && (def == nil || !def.Equal(v)) {
			p := path.Root(f.Attr)
			repair := "Remove " + f.Attr + " from the configuration."
			for _, t := range m.markers {
				if t.From == form.Ref {
					if to, ok := m.cat.Form(t.To); ok {
						if _, has := to.Field(f.Wire); has {
							repair = "Move the resource with form_transition = \"" + t.Marker + "\" first, or remove " + f.Attr + "."
						}
					}
				}
			}
			(&report{summary: fmt.Sprintf("%s is not part of %s %s", f.Attr, form.Ref.Kind, form.Ref.DefinitionVersion),
				typeName: m.typeName, name: plan.str(aName), ref: &form.Ref, attr: &p, pointer: "/spec/" + f.Wire,
				code: codeFieldNotInDefinition, what: "The resource's Form definition does not declare this field.",
				repair: repair}).add(d)
		}
	}
	m.normalizeUndeclared(plan, form)
}

// planReplace adds RequiresReplace for changed fields that the planned ref cannot update.
func (r *Resource) planReplace(plan, prior values, form *model.Form, resp *resource.ModifyPlanResponse) {
	for i := range form.Fields {
		f := &form.Fields[i]
		pv, sv := plan[f.Attr], prior[f.Attr] // both read from whole objects: every attribute is there
		if pv.Equal(sv) || (f.Kind == model.FieldJSONMap && sameJSON(pv, sv)) {
			continue
		}
		if replaces(form, f.Pointer) {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root(f.Attr))
			continue
		}
		if f.Kind != model.FieldObject {
			continue
		}
		for j := range f.Members {
			mf := &f.Members[j]
			pm, decided := memberValue(pv, mf.Attr)
			sm, _ := memberValue(sv, mf.Attr)
			if decided && !sameOrBothMissing(pm, sm) && replaces(form, mf.Pointer) {
				resp.RequiresReplace = append(resp.RequiresReplace, path.Root(f.Attr).AtName(mf.Attr))
			}
		}
	}
	if form.Role == "revision" && prior.known(aDrift) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root(aDrift))
	}
	if form.Role == "revision" && len(resp.RequiresReplace) > 0 && plan.known(aName) && plan.str(aName) == prior.str(aName) {
		m := r.kind.model
		p := path.Root(aName)
		(&report{summary: fmt.Sprintf("Revision %s %s would be replaced under the same name", m.kind.Kind, prior.str(aName)),
			typeName: m.typeName, space: prior.str(aSpace), name: prior.str(aName), ref: &form.Ref, attr: &p,
			code:   codeImmutableRevisionSameName,
			what:   "A revision cannot change in place, and a new revision under the same name would collide with the one it replaces.",
			repair: "Let revision_owner derive the name, give the new content a new name, or — when the content is unchanged, as in relation-drift recovery — change revision_owner so the replacement gets a new name."}).add(&resp.Diagnostics)
	}
}

// planWholeSpec validates the encoded, materialized spec against the compiled
// desiredSchema when every desired value is known.
func (r *Resource) planWholeSpec(plan values, form *model.Form, d *diag.Diagnostics) {
	for i := range form.Fields {
		if !wholeKnown(plan[form.Fields[i].Attr]) {
			return
		}
	}
	spec, err := encodeSpec(form, plan)
	if err != nil {
		return
	}
	err = form.ValidateDesired(spec)
	if err == nil {
		return
	}
	se := &model.SchemaError{Problems: []model.SchemaProblem{{Message: err.Error()}}}
	errors.As(err, &se) // any other error is a problem of the spec as a whole
	for _, p := range se.Problems {
		specProblem(r.kind.model.typeName, form, plan.str(aName), p).add(d)
	}
}

// specProblem reports one whole-spec problem at the top-level attribute its pointer
// falls in, or on the resource as a whole when it falls in none (a problem at the
// spec's root).
func specProblem(typeName string, form *model.Form, name string, p model.SchemaProblem) *report {
	rep := &report{summary: fmt.Sprintf("Invalid desired spec for %s %s", form.Ref.Kind, name),
		typeName: typeName, name: name, ref: &form.Ref, pointer: "/spec" + p.Pointer,
		code: codeDesiredInvalid, repair: "Change the value so it satisfies the Form's desired schema.",
		what: "The desired spec breaks the Form's desired schema at /spec" + p.Pointer + ": " + strings.TrimSuffix(p.Message, ".") + ". Nothing was sent."}
	if ap := pointerPath(form, p.Pointer); len(ap.Steps()) > 0 {
		rep.summary = fmt.Sprintf("Invalid %s for %s %s", ap.String(), form.Ref.Kind, name)
		rep.attr = &ap
	}
	return rep
}

// pointerPath maps a spec instance pointer to the top-level attribute it falls in
// (/labels/team → labels_json), or to the member of an object attribute it names
// (/assets/notFoundHandling → assets.not_found_handling). What the whole-spec check finds lies in one attribute's
// own value (a JSON map's members, a collection as a whole): the catalog admits no
// constraint inside list items that an attribute check does not already check, and
// ValidateConfig runs those first.
func pointerPath(form *model.Form, ptr string) path.Path {
	name, rest, _ := strings.Cut(strings.TrimPrefix(ptr, "/"), "/")
	f, ok := form.Field(name)
	if !ok {
		return path.Empty()
	}
	member, _, _ := strings.Cut(rest, "/")
	if mf := form.ObjectMember("/" + name + "/" + member); mf != nil {
		return path.Root(f.Attr).AtName(mf.Attr)
	}
	return path.Root(f.Attr)
}

// isNullVal and isUnknownVal read values read from a whole object (readValues): every
// attribute is there, none is nil; a missing configuration (nil) holds nulls.
func isNullVal(v values, name string) bool {
	x, ok := v[name]
	return !ok || x.IsNull()
}

func isUnknownVal(v values, name string) bool {
	x, ok := v[name]
	return ok && x.IsUnknown()
}

// sameValues reports a plan equal to the prior state (no request is made for it); both
// are read from whole objects of one schema, so they hold the same attributes.
func sameValues(a, b values) bool {
	for k, v := range a {
		if !v.Equal(b[k]) {
			return false
		}
	}
	return true
}
