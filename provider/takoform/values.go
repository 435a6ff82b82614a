package takoform

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// values is one resource object, attribute name → framework value. Every state the
// provider writes is built as a complete values map, so no attribute is ever left unset.
type values map[string]attr.Value

func diagErr(d diag.Diagnostics) error {
	if !d.HasError() {
		return nil
	}
	for _, e := range d.Errors() {
		return errors.New(e.Summary() + ": " + e.Detail())
	}
	return nil
}

// nullOf is the null value of t.
func nullOf(t attr.Type) attr.Value {
	v, err := t.ValueFromTerraform(context.Background(), tftypes.NewValue(t.TerraformType(context.Background()), nil))
	if err != nil {
		panic(err)
	}
	return v
}

// unknownOf is the unknown value of t.
func unknownOf(t attr.Type) attr.Value {
	v, err := t.ValueFromTerraform(context.Background(), tftypes.NewValue(t.TerraformType(context.Background()), tftypes.UnknownValue))
	if err != nil {
		panic(err)
	}
	return v
}

// readValues converts a raw plan/state/config object into values, one attribute at a
// time: building a whole types.Object first would type-check every attribute again.
func readValues(ctx context.Context, ot types.ObjectType, raw tftypes.Value) (values, error) {
	if raw.IsNull() {
		return nil, nil
	}
	var members map[string]tftypes.Value
	if err := raw.As(&members); err != nil {
		return nil, fmt.Errorf("resource value is not an object: %w", err)
	}
	out := make(values, len(members))
	for k, m := range members {
		t, ok := ot.AttrTypes[k]
		if !ok {
			return nil, fmt.Errorf("resource value has attribute %q, which the schema lacks", k)
		}
		v, err := t.ValueFromTerraform(ctx, m)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

// raw converts values back to a raw object; attributes missing from vals become null.
// Each value already has its attribute's type (the schema made it), so the object is
// assembled directly rather than through types.ObjectValue's checks.
func (vals values) raw(ctx context.Context, ot types.ObjectType) (tftypes.Value, error) {
	members := make(map[string]tftypes.Value, len(ot.AttrTypes))
	types := make(map[string]tftypes.Type, len(ot.AttrTypes))
	for name, t := range ot.AttrTypes {
		tt := t.TerraformType(ctx)
		types[name] = tt
		v, ok := vals[name]
		if !ok || v == nil {
			members[name] = tftypes.NewValue(tt, nil)
			continue
		}
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("attribute %s: %w", name, err)
		}
		if !tv.Type().Equal(tt) {
			return tftypes.Value{}, fmt.Errorf("attribute %s holds a %s, the schema says %s", name, tv.Type(), tt)
		}
		members[name] = tv
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, members), nil
}

func (vals values) clone() values {
	out := make(values, len(vals))
	for k, v := range vals {
		out[k] = v
	}
	return out
}

// str returns a known string attribute, or "" when null/unknown/absent.
func (vals values) str(name string) string {
	if s, ok := vals[name].(types.String); ok && !s.IsNull() && !s.IsUnknown() {
		return s.ValueString()
	}
	return ""
}

// known reports a known, non-null attribute.
func (vals values) known(name string) bool {
	v, ok := vals[name]
	return ok && v != nil && !v.IsNull() && !v.IsUnknown()
}

func strVal(s string) attr.Value { return types.StringValue(s) }

func strOrNull(s string) attr.Value {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// wholeKnown reports whether v and everything inside it is known.
func wholeKnown(v attr.Value) bool {
	if v == nil || v.IsUnknown() {
		return false
	}
	switch c := v.(type) {
	case types.List:
		for _, e := range c.Elements() {
			if !wholeKnown(e) {
				return false
			}
		}
	case types.Set:
		for _, e := range c.Elements() {
			if !wholeKnown(e) {
				return false
			}
		}
	case types.Object:
		for _, e := range c.Attributes() {
			if !wholeKnown(e) {
				return false
			}
		}
	}
	return true
}
