package takoform

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/provider/internal/client"
)

// Form transitions, resource side (docs/provider-design.md#transitions, docs/provider-design.md#transitions).

// privateTransitionKey holds the exact request bytes of an unresolved transition.
const privateTransitionKey = "takoform_transition"

// planTransition plans a declared transition on an existing resource. handled=false
// leaves the plan to the ordinary rules (the resource is already on the marker's
// `to`); to=nil with handled=true means an error was reported.
func (r *Resource) planTransition(ctx context.Context, plan, prior, config values, from *model.Form, marker string, kept []byte, d *diag.Diagnostics) (*model.Form, bool) {
	m := r.kind.model
	t, ok := m.cat.Transition(marker)
	if !ok {
		return nil, false // the attribute validator reports it
	}
	name := prior.str(aName)
	p := path.Root(aFormTransition)
	notApplicable := func(what string) (*model.Form, bool) {
		(&report{summary: fmt.Sprintf("%s %s is on %s@%s, not on the start of %s", m.kind.Kind, name, from.Ref.Kind, from.Ref.DefinitionVersion, marker),
			typeName: m.typeName, space: prior.str(aSpace), name: name, ref: &from.Ref, attr: &p, code: codeFormTransitionNotApplic,
			what: what, repair: "Remove form_transition, or set form_definition_version to the marker's target version (or leave it unset)."}).add(d)
		return nil, true
	}
	v := config.str(aFormDefVersion)
	if v != "" && v != t.To.DefinitionVersion {
		return notApplicable(fmt.Sprintf("form_definition_version %q disagrees with the marker, which moves to %s. No request was sent.", v, t.To.DefinitionVersion))
	}
	if t.To == from.Ref {
		return nil, false // already there: nothing to do, the marker may stay
	}
	if t.From != from.Ref {
		return notApplicable(fmt.Sprintf("The marker moves %s@%s to %s@%s. No request was sent.", t.From.Kind, t.From.DefinitionVersion, t.To.Kind, t.To.DefinitionVersion))
	}
	to, ok := m.cat.Form(t.To)
	if !ok {
		return nil, false
	}
	var changed []string
	for i := range from.Fields {
		f := &from.Fields[i]
		if _, both := to.Field(f.Wire); both && plan[f.Attr] != nil && !plan[f.Attr].Equal(prior[f.Attr]) {
			changed = append(changed, f.Attr)
		}
	}
	if keptRequest(prior, kept) != nil {
		changed = append(changed, r.replanKept(plan, config, to, kept, changed)...)
	}
	if len(changed) > 0 {
		(&report{summary: fmt.Sprintf("Change %s in a separate apply from the Form transition", strings.Join(changed, ", ")),
			typeName: m.typeName, space: prior.str(aSpace), name: name, ref: &from.Ref, attr: &p, code: codeFormTransitionWithChanges,
			what:   "A Form transition moves the resource with its current desired values; other changes must wait for the next apply.",
			repair: "Apply the transition first with the current values, then make the change."}).add(d)
		return nil, true
	}
	if r.configured != nil && r.configured.client != nil {
		disc, err := r.configured.client.Discover(ctx)
		switch {
		case err != nil:
			rep := &report{summary: "Could not check whether the host offers Form transitions", typeName: m.typeName,
				space: prior.str(aSpace), name: name, ref: &from.Ref, attr: &p}
			unreadable(r.configured, rep, err, "The transition is planned; nothing was decided at plan time and apply checks again.")
			rep.add(d)
		case !disc.Features["resource_form_transition"]:
			(&report{summary: fmt.Sprintf("Host does not offer the Form transition of %s %s", m.kind.Kind, name),
				typeName: m.typeName, space: prior.str(aSpace), name: name, ref: &from.Ref, attr: &p,
				code: codeHostNoTransition, what: "Discovery does not advertise resource_form_transition.",
				repair: "Use a host that offers Form transitions, or remove form_transition to stay on " + from.Ref.DefinitionVersion + "."}).add(d)
			return nil, true
		}
	}
	m.setRef(plan, to.Ref)
	r.planHostAnswerUnknown(plan)
	return to, true
}

// keptRequest is the request of the unresolved transition kept in private state, when
// it is the operation the state records as pending; nil otherwise (none kept, or a
// leftover of another operation).
func keptRequest(prior values, kept []byte) *client.TxRequest {
	req, err := client.ParseKept(kept)
	if err != nil || req.OperationID != prior.str(aPendingOp) {
		return nil
	}
	return req
}

// planHostAnswerUnknown plans every attribute the host's next answer writes as unknown
// (generation, revision, conditions, ready, outputs). A change the provider plans itself —
// a transition, or a re-pin whose only planned difference is relation_drift_reason — would
// otherwise keep their prior values and end in "Provider produced inconsistent result".
func (r *Resource) planHostAnswerUnknown(plan values) {
	for _, a := range []string{aGeneration, aRevision, aOutputsJSON} {
		plan[a] = types.StringUnknown()
	}
	plan[aReady] = types.BoolUnknown()
	plan[aConditions] = unknownOf(r.kind.objectType.AttrTypes[aConditions])
	for _, o := range r.kind.model.outputs {
		plan[o.Attr] = unknownOf(r.kind.objectType.AttrTypes[o.Attr])
	}
}

// replanKept lines the plan up with the request of an unresolved transition (kept in
// private state), so the re-run sends the same bytes under the same operation id: a
// value the configuration leaves to the provider (null in config, an Optional+Computed
// attribute) is re-planned as the request sent it. It returns the attributes the
// configuration itself sets to something else; those must wait for the next apply.
func (r *Resource) replanKept(plan, config values, to *model.Form, kept []byte, already []string) []string {
	keptSpec, err := client.KeptSpec(kept)
	if err != nil {
		return nil
	}
	sent := values{}
	if err := r.kind.model.adoptSpec(sent, to, keptSpec, adoptAll); err != nil {
		return nil
	}
	var changed []string
	for i := range to.Fields {
		f := &to.Fields[i]
		want, planned := sent[f.Attr], plan[f.Attr] // adoptAll sets every field of to; the plan holds them all
		if planned.Equal(want) || slices.Contains(already, f.Attr) {
			continue
		}
		if isNullVal(config, f.Attr) && r.kind.schema.Attributes[f.Attr].IsComputed() {
			plan[f.Attr] = want
			continue
		}
		changed = append(changed, f.Attr)
	}
	return changed
}
