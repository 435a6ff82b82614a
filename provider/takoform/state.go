package takoform

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/provider/internal/client"
)

// adoptMode says which desired values a write takes from the host's spec.
type adoptMode int

const (
	adoptUnknown adoptMode = iota // create/update: plan values; the echo only fills unknowns
	adoptNull                     // read of a Form without update: keep prior, fill null/unknown
	adoptAll                      // read of a Form with update: the host's spec wins (drift shows)
)

func conditionType() types.ObjectType {
	at := map[string]attr.Type{}
	for _, n := range conditionAttrs {
		at[n] = types.StringType
	}
	return types.ObjectType{AttrTypes: at}
}

func conditionsValue(st *client.Status) (attr.Value, bool) {
	ct := conditionType()
	elems := []attr.Value{}
	ready := false
	if st != nil {
		for _, c := range st.Conditions {
			msg, hr := "", ""
			if c.Message != nil {
				msg = *c.Message
			}
			if c.HostReason != nil {
				hr = *c.HostReason
			}
			o := types.ObjectValueMust(ct.AttrTypes, map[string]attr.Value{
				"type": strVal(c.Type), "status": strVal(c.Status), "reason": strVal(c.Reason),
				"message": strOrNull(msg), "host_reason": strOrNull(hr),
				"observed_generation": strVal(st.ObservedGeneration), "last_transition_time": strVal(c.LastTransitionTime),
			})
			elems = append(elems, o)
			if c.Type == "Ready" && c.Status == "True" {
				ready = true
			}
		}
	}
	return types.ListValueMust(ct, elems), ready
}

// driftReason is the relation drift the host reports on the Ready condition.
func driftReason(st *client.Status) (reason string, cond *client.Condition) {
	if st == nil {
		return "", nil
	}
	for i, c := range st.Conditions {
		if c.Type == "Ready" && c.Status == "False" && (c.Reason == "ExternalChange" || c.Reason == "DependencyMissing") {
			return c.Reason, &st.Conditions[i]
		}
	}
	return "", nil
}

// setRef writes the five form_* attributes for ref.
func (m *kindModel) setRef(v values, ref wire.FormRef) {
	v[aFormAPIVersion] = strVal(ref.APIVersion)
	v[aFormKind] = strVal(ref.Kind)
	v[aFormDefVersion] = strVal(ref.DefinitionVersion)
	v[aFormSchemaDigest] = strVal(ref.SchemaDigest)
	pkg := ""
	if f, ok := m.cat.Form(ref); ok {
		pkg = f.PackageDigest
	}
	v[aFormPackageDigest] = strOrNull(pkg)
}

// normalizeUndeclared sets every field the ref does not declare to its newest
// default, or null (docs/provider-design.md#desired-fields version rules).
func (m *kindModel) normalizeUndeclared(v values, form *model.Form) {
	for i := range m.fields {
		f := &m.fields[i]
		if _, ok := form.Field(f.Wire); ok {
			continue
		}
		def, err := decodeDefault(f)
		if err != nil || def == nil {
			def = nullOf(attrType(f))
		}
		v[f.Attr] = def
	}
}

// fromResource builds a complete state from a verified representation. base carries
// the desired and configuration-only values the write starts from.
func (m *kindModel) fromResource(base values, form *model.Form, res *client.Resource, mode adoptMode, d *diag.Diagnostics) (values, error) {
	v := base.clone()
	v[aName] = strVal(res.Metadata.Name)
	v[aSpace] = strVal(res.Metadata.Space)
	v[aUID] = strVal(res.Metadata.UID)
	v[aGeneration] = strVal(res.Metadata.Generation)
	v[aRevision] = strVal(res.Metadata.Revision)
	m.setRef(v, res.Form.FormRef)
	conds, ready := conditionsValue(res.Status)
	v[aConditions] = conds
	v[aReady] = types.BoolValue(ready)
	v[aPendingOp] = types.StringNull()
	reason, _ := driftReason(res.Status)
	v[aDrift] = strOrNull(reason)
	if err := m.adoptSpec(v, form, res.Spec, mode); err != nil {
		return nil, err
	}
	m.normalizeUndeclared(v, form)
	m.setOutputs(v, form, res.Status, res.Metadata.Space, res.Metadata.Name, d)
	return v, nil
}

func (m *kindModel) adoptSpec(v values, form *model.Form, raw []byte, mode adoptMode) error {
	specAny, err := decodeJSON(raw)
	if err != nil {
		return &client.Violation{Pointer: "/spec", Reason: err.Error()}
	}
	spec, _ := specAny.(map[string]any)
	for i := range form.Fields {
		f := &form.Fields[i]
		cur := v[f.Attr]
		take := false
		switch mode {
		case adoptAll:
			take = true
		case adoptNull:
			take = cur == nil || cur.IsNull() || !wholeKnown(cur)
		case adoptUnknown:
			take = cur == nil || !wholeKnown(cur)
		}
		if !take {
			continue
		}
		val, err := decodeValue(f, spec[f.Wire])
		if err != nil {
			return &client.Violation{Pointer: "/spec/" + wire.EscapePointerToken(f.Wire), Reason: err.Error()}
		}
		if mode == adoptAll && cur != nil && !cur.IsNull() && f.Kind == model.FieldJSONMap && sameJSON(cur, val) {
			continue // keep the configured spelling of an equal JSON object
		}
		v[f.Attr] = val
	}
	return nil
}

// sameJSON compares two JSON-object strings by canonical form.
func sameJSON(a, b attr.Value) bool {
	as, ok1 := a.(types.String)
	bs, ok2 := b.(types.String)
	if !ok1 || !ok2 {
		return false
	}
	ca, err1 := wire.Canonicalize([]byte(as.ValueString()))
	cb, err2 := wire.Canonicalize([]byte(bs.ValueString()))
	return err1 == nil && err2 == nil && string(ca) == string(cb)
}

// unfinished builds the accepted-unfinished state of docs/provider-design.md#accepted-unfinished from plan values.
func (m *kindModel) unfinished(plan values, form *model.Form, uid, generation, revision, opID string) values {
	v := plan.clone()
	m.setRef(v, form.Ref)
	v[aUID] = strOrNull(uid)
	v[aGeneration] = strOrNull(generation)
	v[aRevision] = strOrNull(revision)
	v[aConditions] = types.ListValueMust(conditionType(), []attr.Value{})
	v[aReady] = types.BoolValue(false)
	v[aDrift] = types.StringNull()
	v[aPendingOp] = strOrNull(opID)
	m.setOutputsUnfinished(v)
	m.normalizeUndeclared(v, form)
	return v
}
