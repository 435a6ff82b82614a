package takoform

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
)

// Attribute checks and plan rules run by the resource itself (docs/provider-design.md#plan-cost).
// The framework logs two TRACE lines around every attribute validator and every plan
// modifier it calls, for every resource of every plan, and a provider process sends
// all of them to OpenTofu: they cost more than the checks. So the schema is declared
// with its validators where each attribute is (schema.go, desired.go), and newKindType
// lifts them out into configChecks that ValidateConfig runs; the plan modifiers the
// framework offers (use the state for an unknown, require replacement) are plan rules
// ModifyPlan applies first, as the framework would have before it.

// configCheck is one attribute validator lifted out of the schema: attr's value, or,
// when member is set, member of every element of the nested list attr.
type configCheck struct {
	attr, member string
	c            check
}

// liftChecks takes every validator of ours (check) out of attrs, nested list members
// included, and returns them; any other validator stays for the framework to run.
func liftChecks(attrs map[string]schema.Attribute) []configCheck {
	var out []configCheck
	lift := func(name, member string, vs []check) {
		for _, c := range vs {
			out = append(out, configCheck{attr: name, member: member, c: c})
		}
	}
	for _, name := range sortedAttrNames(attrs) {
		switch a := attrs[name].(type) {
		case schema.StringAttribute:
			mine, rest := splitChecks(a.Validators)
			a.Validators = rest
			attrs[name] = a
			lift(name, "", mine)
		case schema.Int64Attribute:
			mine, rest := splitChecks(a.Validators)
			a.Validators = rest
			attrs[name] = a
			lift(name, "", mine)
		case schema.SetAttribute:
			mine, rest := splitChecks(a.Validators)
			a.Validators = rest
			attrs[name] = a
			lift(name, "", mine)
		case schema.ListAttribute:
			mine, rest := splitChecks(a.Validators)
			a.Validators = rest
			attrs[name] = a
			lift(name, "", mine)
		case schema.ListNestedAttribute:
			mine, rest := splitChecks(a.Validators)
			a.Validators = rest
			lift(name, "", mine)
			liftMembers(a.NestedObject.Attributes, func(mn string, vs []check) { lift(name, mn, vs) })
			attrs[name] = a
		case schema.SingleNestedAttribute:
			mine, rest := splitChecks(a.Validators)
			a.Validators = rest
			lift(name, "", mine)
			liftMembers(a.Attributes, func(mn string, vs []check) { lift(name, mn, vs) })
			attrs[name] = a
		}
	}
	return out
}

// liftMembers takes our checks out of the members of one nested object.
func liftMembers(nested map[string]schema.Attribute, lift func(member string, vs []check)) {
	for _, mn := range sortedAttrNames(nested) {
		switch ma := nested[mn].(type) {
		case schema.StringAttribute:
			mine, rest := splitChecks(ma.Validators)
			ma.Validators = rest
			nested[mn] = ma
			lift(mn, mine)
		case schema.Int64Attribute:
			mine, rest := splitChecks(ma.Validators)
			ma.Validators = rest
			nested[mn] = ma
			lift(mn, mine)
		}
	}
}

// splitChecks separates our checks from other validators (nil when none remain).
func splitChecks[V any](vs []V) (mine []check, rest []V) {
	for _, v := range vs {
		if c, ok := any(v).(check); ok {
			mine = append(mine, c)
		} else {
			rest = append(rest, v)
		}
	}
	return mine, rest
}

func sortedAttrNames(attrs map[string]schema.Attribute) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// checkAttributes runs the lifted checks over a configuration, as the framework runs
// attribute validators: on known, non-null values, nested members element by element
// (or, in an object attribute, the member itself).
func (r *Resource) checkAttributes(cfg values, d *diag.Diagnostics) {
	for _, cc := range r.kind.checks {
		v := cfg[cc.attr]
		if cc.member == "" {
			cc.c.run(path.Root(cc.attr), v, d)
			continue
		}
		if o, ok := v.(types.Object); ok {
			if !o.IsNull() && !o.IsUnknown() {
				cc.c.run(path.Root(cc.attr).AtName(cc.member), o.Attributes()[cc.member], d)
			}
			continue
		}
		l, ok := v.(types.List)
		if !ok || l.IsNull() || l.IsUnknown() {
			continue
		}
		for i, e := range l.Elements() {
			o, ok := e.(types.Object)
			if !ok || o.IsNull() || o.IsUnknown() {
				continue
			}
			cc.c.run(path.Root(cc.attr).AtListIndex(i).AtName(cc.member), o.Attributes()[cc.member], d)
		}
	}
}

// planRules are the plan modifiers of a kind, applied by ModifyPlan.
type planRules struct {
	// keep: an unknown planned value takes the prior state's (the framework's
	// UseStateForUnknown), for values only the host or the recorded ref decides
	keep []string
	// replace: a planned value other than the prior state's replaces the resource (the
	// framework's RequiresReplace); json compares JSON objects, not their spelling
	replace []replaceRule
}

type replaceRule struct {
	attr   string
	member string // a member of the object attribute attr; "" for attr as a whole
	json   bool
}

// newPlanRules lists the kind's plan rules (docs/provider-design.md#recorded-ref): the host's
// identity and the recorded ref are kept across plans; a new name or space, a new
// revision owner and a change of a field that no version of the kind can update
// replace the resource.
func newPlanRules(m *kindModel) planRules {
	pr := planRules{
		keep:    []string{aUID, aFormAPIVersion, aFormKind, aFormSchemaDigest, aFormDefVersion, aSpace},
		replace: []replaceRule{{attr: aName}, {attr: aSpace}},
	}
	if m.revision {
		// a derived name is re-planned by ModifyPlan; keep it from reading as a replacement first
		pr.keep = append(pr.keep, aName)
		pr.replace = append(pr.replace, replaceRule{attr: aRevisionOwner})
	}
	for i := range m.fields {
		f := &m.fields[i]
		if m.alwaysReplace(f.Pointer) {
			pr.replace = append(pr.replace, replaceRule{attr: f.Attr, json: f.Kind == model.FieldJSONMap})
			continue
		}
		if f.Kind != model.FieldObject {
			continue
		}
		for j := range f.Members {
			if mf := &f.Members[j]; m.alwaysReplace(mf.Pointer) {
				pr.replace = append(pr.replace, replaceRule{attr: f.Attr, member: mf.Attr})
			}
		}
	}
	return pr
}

// applyPlanRules applies the kind's plan rules to the plan of an existing resource, as
// the framework applies plan modifiers before ModifyPlan: keep first, then replace. It
// reports whether it changed a planned value.
func (r *Resource) applyPlanRules(plan, prior, config values, resp *resource.ModifyPlanResponse) (changed bool) {
	rules := &r.kind.rules
	for _, a := range rules.keep {
		if pv := plan[a]; pv != nil && pv.IsUnknown() && !isUnknownVal(config, a) {
			plan[a] = prior[a]
			changed = true
		}
	}
	for _, rr := range rules.replace {
		pv, sv := plan[rr.attr], prior[rr.attr]
		at := path.Root(rr.attr)
		if rr.member != "" {
			var decided bool
			if pv, decided = memberValue(pv, rr.member); !decided {
				continue // an unknown object: its members are decided at apply
			}
			sv, _ = memberValue(sv, rr.member)
			at = at.AtName(rr.member)
		}
		if sameOrBothMissing(pv, sv) || (rr.json && pv != nil && sv != nil && sameJSON(pv, sv)) {
			continue
		}
		resp.RequiresReplace = append(resp.RequiresReplace, at)
	}
	return changed
}

// memberValue is member of the object value v: nil when the object is null (no
// member set), decided false while the object is unknown.
func memberValue(v attr.Value, member string) (mv attr.Value, decided bool) {
	o, ok := v.(types.Object)
	switch {
	case !ok || o.IsNull():
		return nil, true
	case o.IsUnknown():
		return nil, false
	}
	mv = o.Attributes()[member]
	if mv != nil && mv.IsNull() {
		return nil, true
	}
	return mv, true
}

func sameOrBothMissing(a, b attr.Value) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b)
}
