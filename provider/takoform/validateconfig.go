package takoform

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
)

// ValidateConfig runs the cross-field conventions of docs/provider-design.md#desired-fields, the
// revision naming rule (docs/provider-design.md#revision-naming) and every attribute check the
// schema declares (rules.go). All are read from the schema, never from a kind name, and
// skip unknown values.
func (r *Resource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	cfg, err := readValues(ctx, r.kind.objectType, req.Config.Raw)
	if err != nil || cfg == nil {
		return
	}
	r.checkEnvironmentNames(cfg, &resp.Diagnostics)
	r.checkWeights(cfg, &resp.Diagnostics)
	r.checkRevisionNaming(cfg, &resp.Diagnostics)
	r.checkAttributes(cfg, &resp.Diagnostics)
}

func (r *Resource) checkEnvironmentNames(cfg values, d *diag.Diagnostics) {
	m := r.kind.model
	hasBinding := false
	for _, f := range m.fields {
		hasBinding = hasBinding || f.Kind == model.FieldBindingList
	}
	if !hasBinding {
		return
	}
	seen := map[string]bool{}
	visit := func(n string, p path.Path) {
		if seen[n] {
			(&report{summary: fmt.Sprintf("Module environment name %q is declared twice", n), typeName: m.typeName,
				name: cfg.str(aName), code: codeEnvNameDuplicate, attr: &p,
				what:   "Binding names, vars keys and names of required sensitive vars share one namespace in the module's environment.",
				repair: "Rename one of them."}).add(d)
		}
		seen[n] = true
	}
	for i := range m.fields {
		f := &m.fields[i]
		v := cfg[f.Attr]
		if v == nil || v.IsNull() || v.IsUnknown() {
			continue
		}
		root := path.Root(f.Attr)
		switch f.Kind {
		case model.FieldBindingList:
			for j, e := range v.(types.List).Elements() {
				o, ok := e.(types.Object)
				if !ok || o.IsUnknown() {
					continue
				}
				if n, ok := o.Attributes()["name"].(types.String); ok && !n.IsNull() && !n.IsUnknown() {
					visit(n.ValueString(), root.AtListIndex(j).AtName("name"))
				}
			}
		case model.FieldJSONMap:
			var obj map[string]json.RawMessage
			if json.Unmarshal([]byte(v.(types.String).ValueString()), &obj) == nil {
				for _, k := range slices.Sorted(maps.Keys(obj)) {
					visit(k, root)
				}
			}
		case model.FieldStringSet, model.FieldStringList:
			if len(f.Enum) > 0 {
				continue
			}
			var elems []attr.Value
			if s, ok := v.(types.Set); ok {
				elems = s.Elements()
			} else if l, ok := v.(types.List); ok {
				elems = l.Elements()
			}
			for j, e := range elems {
				s, ok := e.(types.String)
				if !ok || s.IsNull() || s.IsUnknown() {
					continue
				}
				p := root.AtListIndex(j)
				if f.Kind == model.FieldStringSet {
					p = root.AtSetValue(e)
				}
				visit(s.ValueString(), p)
			}
		}
	}
}

func (r *Resource) checkWeights(cfg values, d *diag.Diagnostics) {
	m := r.kind.model
	for i := range m.fields {
		f := &m.fields[i]
		if f.Kind != model.FieldObjectList {
			continue
		}
		var weight *model.Field
		for j := range f.Members {
			mf := &f.Members[j]
			if mf.Wire == "weight" && mf.Kind == model.FieldInteger && mf.Required && mf.Max != nil {
				weight = mf
			}
		}
		v, ok := cfg[f.Attr].(types.List)
		if weight == nil || !ok || v.IsNull() || v.IsUnknown() {
			continue
		}
		var sum int64
		for _, e := range v.Elements() {
			o, ok := e.(types.Object)
			if !ok || o.IsUnknown() {
				return
			}
			w, ok := o.Attributes()[weight.Attr].(types.Int64)
			if !ok || w.IsUnknown() || w.IsNull() {
				return
			}
			sum += w.ValueInt64()
		}
		if sum != *weight.Max {
			p := path.Root(f.Attr)
			(&report{summary: fmt.Sprintf("Weights of %s add up to %d, not %d", f.Attr, sum, *weight.Max), typeName: m.typeName,
				name: cfg.str(aName), code: codeWeightSumInvalid, attr: &p,
				what:   "The entries split traffic, so their weights must add up to exactly the maximum weight.",
				repair: fmt.Sprintf("Adjust the weights so they sum to %d.", *weight.Max)}).add(d)
		}
	}
}

func (r *Resource) checkRevisionNaming(cfg values, d *diag.Diagnostics) {
	m := r.kind.model
	if !m.revision || isUnknownVal(cfg, aName) || isUnknownVal(cfg, aRevisionOwner) {
		return
	}
	hasName, hasOwner := cfg.known(aName), cfg.known(aRevisionOwner)
	switch {
	case hasName && hasOwner:
		p := path.Root(aRevisionOwner)
		(&report{summary: "Set either name or revision_owner, not both", typeName: m.typeName, name: cfg.str(aName),
			code: codeRevisionOwnerConflict, attr: &p, what: "A revision is named either explicitly or from its content and owner.",
			repair: "Remove name (to derive it) or remove revision_owner."}).add(d)
	case !hasName && !hasOwner:
		p := path.Root(aName)
		(&report{summary: "Set name or revision_owner on " + m.typeName, typeName: m.typeName,
			code: codeRevisionOwnerMissing, attr: &p, what: "A revision needs a name: give one, or let revision_owner derive it from the content.",
			repair: "Set revision_owner (recommended, with lifecycle { create_before_destroy = true }) or name."}).add(d)
	}
}
