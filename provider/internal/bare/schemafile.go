// Package bare is the yardstick of the plan benchmark: a terraform-plugin-framework
// provider that serves exactly the schemas of a takoform provider and does nothing
// else. Its cost is what the framework and OpenTofu alone charge for those schemas, so
// the benchmark can say how much of a plan is takokit's own work.
package bare

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// File is the schema document the bare provider serves: written once from a real
// provider (Capture), read at every start (Serve), so a bare start costs what a
// framework provider with literal schemas costs.
type File struct {
	Provider            []Attr            `json:"provider"`
	ProviderDescription string            `json:"providerDescription,omitempty"`
	Resources           map[string][]Attr `json:"resources"`
	Descriptions        map[string]string `json:"descriptions,omitempty"` // per resource type
}

// Attr is one attribute: a tftypes type in its JSON form, or nested attributes.
type Attr struct {
	Name      string          `json:"name"`
	Type      json.RawMessage `json:"type,omitempty"`
	Nesting   string          `json:"nesting,omitempty"` // list, set or single for nested attributes
	Nested    []Attr          `json:"nested,omitempty"`
	Required  bool            `json:"required,omitempty"`
	Optional  bool            `json:"optional,omitempty"`
	Computed  bool            `json:"computed,omitempty"`
	Sensitive bool            `json:"sensitive,omitempty"`
	// Description is served as Markdown, as the takoform provider serves every
	// description: the schema answer OpenTofu reads is the same size.
	Description string `json:"description,omitempty"`
}

// Capture asks factory for its schemas over the plugin protocol, the way OpenTofu does.
func Capture(ctx context.Context, factory func() fwprovider.Provider) (*File, error) {
	srv, err := providerserver.NewProtocol6WithError(factory())()
	if err != nil {
		return nil, err
	}
	resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return nil, fmt.Errorf("schema: %s: %s", d.Summary, d.Detail)
		}
	}
	f := &File{Resources: map[string][]Attr{}, Descriptions: map[string]string{}}
	if f.Provider, err = attrsOf(resp.Provider.Block); err != nil {
		return nil, err
	}
	f.ProviderDescription = resp.Provider.Block.Description
	for name, s := range resp.ResourceSchemas {
		f.Descriptions[name] = s.Block.Description
		if f.Resources[name], err = attrsOf(s.Block); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return f, nil
}

func attrsOf(b *tfprotov6.SchemaBlock) ([]Attr, error) {
	if b == nil {
		return nil, nil
	}
	if len(b.BlockTypes) > 0 {
		return nil, fmt.Errorf("nested blocks are not supported by the bare provider")
	}
	out := make([]Attr, 0, len(b.Attributes))
	for _, a := range b.Attributes {
		x, err := attrOf(a)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Name, err)
		}
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func attrOf(a *tfprotov6.SchemaAttribute) (Attr, error) {
	x := Attr{Name: a.Name, Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, Description: a.Description}
	if a.NestedType != nil {
		switch a.NestedType.Nesting {
		case tfprotov6.SchemaObjectNestingModeList:
			x.Nesting = "list"
		case tfprotov6.SchemaObjectNestingModeSet:
			x.Nesting = "set"
		case tfprotov6.SchemaObjectNestingModeSingle:
			x.Nesting = "single"
		default:
			return x, fmt.Errorf("nesting %v is not supported", a.NestedType.Nesting)
		}
		for _, n := range a.NestedType.Attributes {
			nx, err := attrOf(n)
			if err != nil {
				return x, err
			}
			x.Nested = append(x.Nested, nx)
		}
		return x, nil
	}
	raw, err := a.Type.MarshalJSON()
	if err != nil {
		return x, err
	}
	x.Type = raw
	return x, nil
}

// typeOf parses a tftypes type back from its JSON form.
func typeOf(raw json.RawMessage) (tftypes.Type, error) {
	//nolint:staticcheck // the JSON type form is exactly what Capture wrote
	return tftypes.ParseJSONType(raw)
}
