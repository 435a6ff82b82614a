package takoform

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// The per-FormRef codec (docs/provider-design.md#codec): a Form's field list maps attribute
// values to spec members and back. Nothing here names a kind.

const bindingTargetAttr = "target_name"

func bindingItemType() types.ObjectType {
	return types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, bindingTargetAttr: types.StringType}}
}

func memberType(f *model.Field) attr.Type {
	switch f.Kind {
	case model.FieldInteger:
		return types.Int64Type
	case model.FieldBoolean:
		return types.BoolType
	}
	return types.StringType
}

// attrType is the framework type of a desired field's attribute.
func attrType(f *model.Field) attr.Type {
	switch f.Kind {
	case model.FieldInteger:
		return types.Int64Type
	case model.FieldBoolean:
		return types.BoolType
	case model.FieldStringSet:
		return types.SetType{ElemType: types.StringType}
	case model.FieldStringList:
		return types.ListType{ElemType: types.StringType}
	case model.FieldBindingList:
		return types.ListType{ElemType: bindingItemType()}
	case model.FieldObjectList:
		return types.ListType{ElemType: membersType(f)}
	case model.FieldObject:
		return membersType(f)
	}
	return types.StringType
}

// membersType is the object type of an object field, or of an object-list item.
func membersType(f *model.Field) types.ObjectType {
	at := map[string]attr.Type{}
	for i := range f.Members {
		at[f.Members[i].Attr] = memberType(&f.Members[i])
	}
	return types.ObjectType{AttrTypes: at}
}

// encodeSpec builds the spec object of form from attribute values (null → omitted),
// then fills every absent top-level default (the host materializes them too).
func encodeSpec(form *model.Form, vals values) (map[string]any, error) {
	spec := map[string]any{}
	for i := range form.Fields {
		f := &form.Fields[i]
		v, ok := vals[f.Attr]
		if !ok || v == nil || v.IsNull() {
			continue
		}
		if !wholeKnown(v) {
			// an unknown element would otherwise be encoded as its zero value
			return nil, fmt.Errorf("%s field %s is not known yet: the plan left it, or a value inside it, unknown", form.Ref.Kind, f.Attr)
		}
		j, err := encodeValue(f, v)
		if err != nil {
			return nil, fmt.Errorf("%s field %s: %w", form.Ref.Kind, f.Attr, err)
		}
		spec[f.Wire] = j
	}
	return form.Materialize(spec), nil
}

func refNode(t *model.RefTarget, name string) map[string]any {
	return map[string]any{"apiVersion": t.APIVersion, "kind": t.Kind, "name": name}
}

func encodeValue(f *model.Field, v attr.Value) (any, error) {
	switch f.Kind {
	case model.FieldInteger:
		return v.(types.Int64).ValueInt64(), nil
	case model.FieldBoolean:
		return v.(types.Bool).ValueBool(), nil
	case model.FieldString, model.FieldStringEnum:
		return v.(types.String).ValueString(), nil
	case model.FieldReference:
		if f.Ref == nil {
			return nil, fmt.Errorf("reference without target")
		}
		return refNode(f.Ref, v.(types.String).ValueString()), nil
	case model.FieldJSONMap:
		var obj map[string]any
		if err := wire.DecodeNumbers([]byte(v.(types.String).ValueString()), &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("value is not one JSON object")
		}
		return obj, nil
	case model.FieldStringSet:
		out := stringsOf(v.(types.Set).Elements())
		// sorted by the JCS bytes of the elements
		sort.Slice(out, func(i, j int) bool { return jcsString(out[i]) < jcsString(out[j]) })
		return toAny(out), nil
	case model.FieldStringList:
		return toAny(stringsOf(v.(types.List).Elements())), nil
	case model.FieldBindingList:
		var out []any
		for _, e := range v.(types.List).Elements() {
			o := e.(types.Object).Attributes()
			member, target := f.RefMember, bindingRefTarget(f)
			if target == nil {
				return nil, fmt.Errorf("binding list without a reference member")
			}
			out = append(out, map[string]any{
				"name": o["name"].(types.String).ValueString(),
				member: refNode(target, o[bindingTargetAttr].(types.String).ValueString()),
			})
		}
		return nonNilList(out), nil
	case model.FieldObjectList:
		var out []any
		for _, e := range v.(types.List).Elements() {
			item, err := encodeMembers(f, e.(types.Object))
			if err != nil {
				return nil, err
			}
			out = append(out, item)
		}
		return nonNilList(out), nil
	case model.FieldObject:
		return encodeMembers(f, v.(types.Object))
	}
	return nil, fmt.Errorf("field kind %q is not supported", f.Kind)
}

// encodeMembers encodes the members of an object value: null members are omitted.
func encodeMembers(f *model.Field, o types.Object) (map[string]any, error) {
	at := o.Attributes()
	item := map[string]any{}
	for i := range f.Members {
		mf := &f.Members[i]
		mv := at[mf.Attr]
		if mv == nil || mv.IsNull() {
			continue
		}
		if mv.IsUnknown() {
			return nil, fmt.Errorf("member %s is unknown", mf.Attr)
		}
		j, err := encodeValue(mf, mv)
		if err != nil {
			return nil, err
		}
		item[mf.Wire] = j
	}
	return item, nil
}

// bindingRefTarget is the reference target of a binding item: its reference member's
// (the catalog gives a binding list no target of its own, only its item's member:
// TestBindingListEncodesThroughItsReferenceMember), nil when it has none.
func bindingRefTarget(f *model.Field) *model.RefTarget {
	for i := range f.Members {
		if f.Members[i].Wire == f.RefMember && f.Members[i].Ref != nil {
			return f.Members[i].Ref
		}
	}
	return nil
}

func nonNilList(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func stringsOf(elems []attr.Value) []string {
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		out = append(out, e.(types.String).ValueString())
	}
	return out
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

func jcsString(s string) string {
	b, err := wire.CanonicalValue(s)
	if err != nil {
		return s
	}
	return string(b)
}

// decodeJSON parses bytes with json.Number.
func decodeJSON(raw []byte) (any, error) {
	var v any
	if err := wire.DecodeNumbers(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeValue maps one spec member (decoded with json.Number) to the attribute value
// (Read adoption and static defaults). nil → null.
func decodeValue(f *model.Field, v any) (attr.Value, error) {
	t := attrType(f)
	if v == nil {
		return nullOf(t), nil
	}
	bad := func() (attr.Value, error) {
		return nil, fmt.Errorf("member %s has an unexpected JSON type %T", f.Wire, v)
	}
	switch f.Kind {
	case model.FieldInteger:
		n, ok := v.(json.Number)
		if !ok {
			return bad()
		}
		i, err := n.Int64()
		if err != nil {
			return nil, fmt.Errorf("member %s is not an integer: %s", f.Wire, n)
		}
		return types.Int64Value(i), nil
	case model.FieldBoolean:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		return types.BoolValue(b), nil
	case model.FieldString, model.FieldStringEnum:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		return types.StringValue(s), nil
	case model.FieldReference:
		o, ok := v.(map[string]any)
		name, ok2 := o["name"].(string)
		if !ok || !ok2 {
			return bad()
		}
		return types.StringValue(name), nil
	case model.FieldJSONMap:
		if _, ok := v.(map[string]any); !ok {
			return bad()
		}
		b, err := wire.CanonicalValue(v)
		if err != nil {
			return nil, err
		}
		return types.StringValue(string(b)), nil
	case model.FieldStringSet, model.FieldStringList:
		arr, ok := v.([]any)
		if !ok {
			return bad()
		}
		elems := make([]attr.Value, 0, len(arr))
		for _, e := range arr {
			s, ok := e.(string)
			if !ok {
				return bad()
			}
			elems = append(elems, types.StringValue(s))
		}
		if f.Kind == model.FieldStringSet {
			sv, d := types.SetValue(types.StringType, elems)
			return sv, diagErr(d)
		}
		lv, d := types.ListValue(types.StringType, elems)
		return lv, diagErr(d)
	case model.FieldBindingList, model.FieldObjectList:
		arr, ok := v.([]any)
		if !ok {
			return bad()
		}
		et := t.(types.ListType).ElemType.(types.ObjectType)
		elems := make([]attr.Value, 0, len(arr))
		for _, e := range arr {
			o, ok := e.(map[string]any)
			if !ok {
				return bad()
			}
			if f.Kind == model.FieldObjectList {
				ov, err := decodeMembers(f, o)
				if err != nil {
					return nil, err
				}
				elems = append(elems, ov)
				continue
			}
			// a binding entry is {name, <refMember>: {…, name}}: anything else is not
			// taken as an empty name
			name, ok := o["name"].(string)
			ref, ok2 := o[f.RefMember].(map[string]any)
			target, ok3 := ref["name"].(string)
			if !ok || !ok2 || !ok3 {
				return nil, fmt.Errorf("member %s has an entry that is not {name, %s: {name}}", f.Wire, f.RefMember)
			}
			ov, d := types.ObjectValue(et.AttrTypes, map[string]attr.Value{"name": types.StringValue(name), bindingTargetAttr: types.StringValue(target)})
			if err := diagErr(d); err != nil {
				return nil, err
			}
			elems = append(elems, ov)
		}
		lv, d := types.ListValue(et, elems)
		return lv, diagErr(d)
	case model.FieldObject:
		o, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		return decodeMembers(f, o)
	}
	return nil, fmt.Errorf("field kind %q is not supported", f.Kind)
}

// decodeMembers decodes an object's members (absent → null) into an object value of
// the field's members type.
func decodeMembers(f *model.Field, o map[string]any) (attr.Value, error) {
	vals := make(map[string]attr.Value, len(f.Members))
	for i := range f.Members {
		mv, err := decodeValue(&f.Members[i], o[f.Members[i].Wire])
		if err != nil {
			return nil, err
		}
		vals[f.Members[i].Attr] = mv
	}
	ov, d := types.ObjectValue(membersType(f).AttrTypes, vals)
	return ov, diagErr(d)
}

// decodeDefault is the attribute value of a field's authored default (nil when none).
func decodeDefault(f *model.Field) (attr.Value, error) {
	if f.Default == nil {
		return nil, nil
	}
	v, err := decodeJSON(f.Default)
	if err != nil {
		return nil, err
	}
	return decodeValue(f, v)
}
