package bare

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// New returns a provider named typeName serving f's schemas with no behaviour.
func New(typeName string, f *File) (func() fwprovider.Provider, error) {
	p := &provider{typeName: typeName}
	ps, err := providerAttrs(f.Provider)
	if err != nil {
		return nil, fmt.Errorf("provider schema: %w", err)
	}
	p.schema = pschema.Schema{Attributes: ps, MarkdownDescription: f.ProviderDescription}
	for name, attrs := range f.Resources {
		rs, err := resourceAttrs(attrs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		p.resources = append(p.resources, &bareResource{name: name, schema: schema.Schema{Version: 1, Attributes: rs, MarkdownDescription: f.Descriptions[name]}})
	}
	return func() fwprovider.Provider { return p }, nil
}

type provider struct {
	typeName  string
	schema    pschema.Schema
	resources []*bareResource
}

func (p *provider) Metadata(_ context.Context, _ fwprovider.MetadataRequest, resp *fwprovider.MetadataResponse) {
	resp.TypeName = p.typeName
}

func (p *provider) Schema(_ context.Context, _ fwprovider.SchemaRequest, resp *fwprovider.SchemaResponse) {
	resp.Schema = p.schema
}

func (p *provider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}

func (p *provider) Resources(context.Context) []func() resource.Resource {
	out := make([]func() resource.Resource, 0, len(p.resources))
	for _, r := range p.resources {
		out = append(out, func() resource.Resource { return r })
	}
	return out
}

func (p *provider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// bareResource plans what the framework plans, stores the plan with every unknown
// filled in, and reads back its own state.
type bareResource struct {
	name   string
	schema schema.Schema
}

func (r *bareResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.name
}

func (r *bareResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}

func (r *bareResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = fill(req.Plan.Raw)
}

func (r *bareResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *bareResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = fill(req.Plan.Raw)
}

func (r *bareResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// fill replaces every unknown value with a known one of its type.
func fill(v tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		t := v.Type()
		switch {
		case t.Is(tftypes.String):
			return tftypes.NewValue(t, "bare"), nil
		case t.Is(tftypes.Number):
			return tftypes.NewValue(t, 0), nil
		case t.Is(tftypes.Bool):
			return tftypes.NewValue(t, false), nil
		case t.Is(tftypes.List{}), t.Is(tftypes.Set{}):
			// a computed list of objects (takokit's conditions) holds one element, as a
			// host's answer does (Ready), so the yardstick stores what takokit stores
			var elem tftypes.Type
			if l, ok := t.(tftypes.List); ok {
				elem = l.ElementType
			} else {
				elem = t.(tftypes.Set).ElementType
			}
			if obj, ok := elem.(tftypes.Object); ok {
				members := map[string]tftypes.Value{}
				for k, at := range obj.AttributeTypes {
					members[k] = fill(tftypes.NewValue(at, tftypes.UnknownValue))
				}
				return tftypes.NewValue(t, []tftypes.Value{tftypes.NewValue(obj, members)}), nil
			}
			return tftypes.NewValue(t, []tftypes.Value{}), nil
		case t.Is(tftypes.Map{}):
			return tftypes.NewValue(t, map[string]tftypes.Value{}), nil
		}
		return tftypes.NewValue(t, nil), nil
	})
	if err != nil {
		return v
	}
	return out
}

func resourceAttrs(in []Attr) (map[string]schema.Attribute, error) {
	out := make(map[string]schema.Attribute, len(in))
	for _, a := range in {
		x, err := resourceAttr(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
		out[a.Name] = x
	}
	return out, nil
}

func resourceAttr(a Attr) (schema.Attribute, error) {
	if a.Nesting != "" {
		nested, err := resourceAttrs(a.Nested)
		if err != nil {
			return nil, err
		}
		obj := schema.NestedAttributeObject{Attributes: nested}
		switch a.Nesting {
		case "list":
			return schema.ListNestedAttribute{NestedObject: obj, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
		case "set":
			return schema.SetNestedAttribute{NestedObject: obj, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
		default:
			return schema.SingleNestedAttribute{Attributes: nested, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
		}
	}
	t, err := typeOf(a.Type)
	if err != nil {
		return nil, err
	}
	switch {
	case t.Is(tftypes.String):
		return schema.StringAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	case t.Is(tftypes.Number):
		return schema.Int64Attribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	case t.Is(tftypes.Bool):
		return schema.BoolAttribute{Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	}
	at, err := attrType(t)
	if err != nil {
		return nil, err
	}
	switch c := at.(type) {
	case types.ListType:
		return schema.ListAttribute{ElementType: c.ElemType, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	case types.SetType:
		return schema.SetAttribute{ElementType: c.ElemType, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	case types.MapType:
		return schema.MapAttribute{ElementType: c.ElemType, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	case types.ObjectType:
		return schema.ObjectAttribute{AttributeTypes: c.AttrTypes, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, MarkdownDescription: a.Description}, nil
	}
	return nil, fmt.Errorf("type %s is not supported", t)
}

func attrType(t tftypes.Type) (attr.Type, error) {
	switch {
	case t.Is(tftypes.String):
		return types.StringType, nil
	case t.Is(tftypes.Number):
		return types.Int64Type, nil
	case t.Is(tftypes.Bool):
		return types.BoolType, nil
	}
	switch c := t.(type) {
	case tftypes.List:
		e, err := attrType(c.ElementType)
		return types.ListType{ElemType: e}, err
	case tftypes.Set:
		e, err := attrType(c.ElementType)
		return types.SetType{ElemType: e}, err
	case tftypes.Map:
		e, err := attrType(c.ElementType)
		return types.MapType{ElemType: e}, err
	case tftypes.Object:
		m := map[string]attr.Type{}
		for k, v := range c.AttributeTypes {
			e, err := attrType(v)
			if err != nil {
				return nil, err
			}
			m[k] = e
		}
		return types.ObjectType{AttrTypes: m}, nil
	}
	return nil, fmt.Errorf("type %s is not supported", t)
}

func providerAttrs(in []Attr) (map[string]pschema.Attribute, error) {
	out := make(map[string]pschema.Attribute, len(in))
	for _, a := range in {
		if a.Nesting != "" {
			return nil, fmt.Errorf("attribute %s: nested provider attributes are not supported", a.Name)
		}
		t, err := typeOf(a.Type)
		if err != nil {
			return nil, err
		}
		switch {
		case t.Is(tftypes.String):
			out[a.Name] = pschema.StringAttribute{Required: a.Required, Optional: a.Optional, Sensitive: a.Sensitive, MarkdownDescription: a.Description}
		case t.Is(tftypes.Bool):
			out[a.Name] = pschema.BoolAttribute{Required: a.Required, Optional: a.Optional, Sensitive: a.Sensitive, MarkdownDescription: a.Description}
		default:
			return nil, fmt.Errorf("attribute %s: only string and bool provider attributes are supported", a.Name)
		}
	}
	return out, nil
}
