package takoform

import (
	"encoding/json"
	"fmt"
	"github.com/takokit/takokit/provider/internal/lazyre"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
)

// fieldMode is Required / Optional / Optional+Computed of a desired attribute.
type fieldMode struct{ required, optional, computed bool }

func modeOf(m *kindModel, f *model.Field) fieldMode {
	switch {
	case m.bundle != nil && f.Wire == "manifestDigest":
		return fieldMode{optional: true, computed: true}
	case m.requiredEverywhere(f.Wire):
		return fieldMode{required: true}
	case f.Default != nil:
		return fieldMode{optional: true, computed: true}
	}
	return fieldMode{optional: true}
}

// stringRulesOf are the checks of a string field or member. It cannot fail: the
// catalog loader refused any pattern that does not compile, and compiling waits for the
// first value to check, so building the schema stays cheap.
func stringRulesOf(f *model.Field) stringRules {
	r := stringRules{minLen: f.MinLength, maxLen: f.MaxLength, enum: f.Enum, about: f.Description}
	if f.Pattern != "" {
		r.pattern = lazyre.New(f.Pattern)
	}
	return r
}

func fieldDescription(m *kindModel, f *model.Field) string {
	d := f.Description
	if d == "" {
		d = "Desired field " + f.Wire + "."
	}
	if f.Default != nil {
		d += fmt.Sprintf(" Omitting it means the default %s.", string(f.Default))
	}
	if m.alwaysReplace(f.Pointer) {
		d += " Changing it replaces the resource."
	}
	return d
}

// desiredAttr builds the attribute of one desired field (docs/provider-design.md#desired-fields).
func desiredAttr(m *kindModel, f *model.Field) (schema.Attribute, error) {
	mode := modeOf(m, f)
	desc := fieldDescription(m, f)
	def, err := decodeDefault(f)
	if err != nil {
		return nil, fmt.Errorf("default: %w", err)
	}
	rules := stringRulesOf(f)
	switch f.Kind {
	case model.FieldString, model.FieldStringEnum, model.FieldReference, model.FieldJSONMap:
		a := schema.StringAttribute{Required: mode.required, Optional: mode.optional, Computed: mode.computed, Description: desc}
		switch f.Kind {
		case model.FieldReference:
			a.Description = desc + " The target resource's name."
			a.Validators = []validator.String{stringCheck(resourceNameRules)}
		case model.FieldJSONMap:
			a.Description = desc + " One JSON object, e.g. jsonencode({...})."
			a.Validators = []validator.String{jsonObjectCheck(maxProperties(m, f.Wire))}
		default:
			if !rules.empty() {
				a.Validators = []validator.String{stringCheck(rules)}
			}
		}
		if def != nil {
			a.Default = stringdefault.StaticString(def.(types.String).ValueString())
		}
		return a, nil
	case model.FieldInteger:
		a := schema.Int64Attribute{Required: mode.required, Optional: mode.optional, Computed: mode.computed, Description: desc}
		if f.Min != nil || f.Max != nil {
			a.Validators = []validator.Int64{rangeCheck(f.Min, f.Max)}
		}
		if def != nil {
			a.Default = int64default.StaticInt64(def.(types.Int64).ValueInt64())
		}
		return a, nil
	case model.FieldBoolean:
		a := schema.BoolAttribute{Required: mode.required, Optional: mode.optional, Computed: mode.computed, Description: desc}
		if def != nil {
			a.Default = booldefault.StaticBool(def.(types.Bool).ValueBool())
		}
		return a, nil
	case model.FieldStringSet:
		a := schema.SetAttribute{ElementType: types.StringType, Required: mode.required, Optional: mode.optional,
			Computed: mode.computed, Description: desc,
			Validators: []validator.Set{collectionCheck(f.MinItems, f.MaxItems, false, rules)}}
		if def != nil {
			a.Default = setdefault.StaticValue(def.(types.Set))
		}
		return a, nil
	case model.FieldStringList:
		a := schema.ListAttribute{ElementType: types.StringType, Required: mode.required, Optional: mode.optional,
			Computed: mode.computed, Description: desc,
			Validators: []validator.List{collectionCheck(f.MinItems, f.MaxItems, f.Unique, rules)}}
		if def != nil {
			a.Default = listdefault.StaticValue(def.(types.List))
		}
		return a, nil
	case model.FieldBindingList, model.FieldObjectList:
		a := schema.ListNestedAttribute{NestedObject: nestedObject(f), Required: mode.required, Optional: mode.optional,
			Computed: mode.computed, Description: desc,
			Validators: []validator.List{collectionCheck(f.MinItems, f.MaxItems, f.Unique, stringRules{})}}
		if def != nil {
			a.Default = listdefault.StaticValue(def.(types.List))
		}
		return a, nil
	case model.FieldObject:
		a := schema.SingleNestedAttribute{Attributes: objectMembers(m, f), Required: mode.required, Optional: mode.optional,
			Computed: mode.computed, Description: desc}
		if def != nil {
			a.Default = objectdefault.StaticValue(def.(types.Object))
		}
		return a, nil
	}
	return nil, fmt.Errorf("field kind %q has no attribute shape", f.Kind)
}

func nestedObject(f *model.Field) schema.NestedAttributeObject {
	attrs := map[string]schema.Attribute{}
	if f.Kind == model.FieldBindingList {
		var envNameRules stringRules
		for i := range f.Members {
			if f.Members[i].Wire == "name" {
				envNameRules = stringRulesOf(&f.Members[i])
			}
		}
		attrs["name"] = schema.StringAttribute{Required: true, Description: "Binding name seen by the runtime.",
			Validators: []validator.String{stringCheck(envNameRules)}}
		attrs[bindingTargetAttr] = schema.StringAttribute{Required: true, Description: "Name of the bound resource.",
			Validators: []validator.String{stringCheck(resourceNameRules)}}
		return schema.NestedAttributeObject{Attributes: attrs}
	}
	for i := range f.Members {
		mf := &f.Members[i]
		desc := mf.Description
		if desc == "" {
			desc = fmt.Sprintf("Member %s of each %s item.", mf.Wire, f.Wire)
		}
		attrs[mf.Attr] = memberAttr(mf, desc)
	}
	return schema.NestedAttributeObject{Attributes: attrs}
}

// maxProperties reads a json-map property's maxProperties from the newest desired
// schema declaring it (the field model does not carry it).
func maxProperties(m *kindModel, wireName string) *int64 {
	for i := len(m.kind.Versions) - 1; i >= 0; i-- {
		v, err := decodeJSON(m.kind.Versions[i].DesiredJSON)
		if err != nil {
			continue
		}
		root, _ := v.(map[string]any)
		props, _ := root["properties"].(map[string]any)
		node, ok := props[wireName].(map[string]any)
		if !ok {
			continue
		}
		if n, ok := node["maxProperties"].(json.Number); ok {
			if x, err := n.Int64(); err == nil {
				return &x
			}
		}
		return nil
	}
	return nil
}

// objectMembers are the attributes of an object field's members: each Required or
// Optional as the object's schema says, with its own validators, and marked when a
// change of it replaces the resource.
func objectMembers(m *kindModel, f *model.Field) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{}
	for i := range f.Members {
		mf := &f.Members[i]
		desc := mf.Description
		if desc == "" {
			desc = fmt.Sprintf("Member %s of %s.", mf.Wire, f.Wire)
		}
		if m.alwaysReplace(mf.Pointer) && !m.alwaysReplace(f.Pointer) {
			desc += " Changing it replaces the resource."
		}
		attrs[mf.Attr] = memberAttr(mf, desc)
	}
	return attrs
}

// memberAttr is the attribute of one scalar or reference member of an object or an
// object-list item.
func memberAttr(mf *model.Field, desc string) schema.Attribute {
	switch mf.Kind {
	case model.FieldInteger:
		a := schema.Int64Attribute{Required: mf.Required, Optional: !mf.Required, Description: desc}
		if mf.Min != nil || mf.Max != nil {
			a.Validators = []validator.Int64{rangeCheck(mf.Min, mf.Max)}
		}
		return a
	case model.FieldBoolean:
		return schema.BoolAttribute{Required: mf.Required, Optional: !mf.Required, Description: desc}
	case model.FieldReference:
		return schema.StringAttribute{Required: mf.Required, Optional: !mf.Required, Description: desc + " The target resource's name.",
			Validators: []validator.String{stringCheck(resourceNameRules)}}
	}
	a := schema.StringAttribute{Required: mf.Required, Optional: !mf.Required, Description: desc}
	if r := stringRulesOf(mf); !r.empty() {
		a.Validators = []validator.String{stringCheck(r)}
	}
	return a
}
