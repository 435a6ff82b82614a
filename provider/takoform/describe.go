package takoform

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// conditionDescriptions describe the members of each conditions element.
var conditionDescriptions = map[string]string{
	"type":                 "Condition type (`Ready`, ...), one of the published condition types.",
	"status":               "`True`, `False` or `Unknown`.",
	"reason":               "Published reason code for the status.",
	"message":              "Human-readable explanation from the host; null when the host gives none.",
	"host_reason":          "Host-specific reason detail; null when the host gives none.",
	"observed_generation":  "The generation the host had observed when it reported the condition (`status.observedGeneration`).",
	"last_transition_time": "When the status last changed (RFC 3339).",
}

// describeAll gives every attribute, nested ones included, a MarkdownDescription (the
// generated docs and the language server show it). An attribute built without any
// description is a provider bug and stops the provider from being built.
func describeAll(attrs map[string]schema.Attribute, where string) error {
	for name, a := range attrs {
		at := where + name
		d := a.GetDescription()
		if d == "" {
			return fmt.Errorf("attribute %s has no description", at)
		}
		switch x := a.(type) {
		case schema.StringAttribute:
			x.MarkdownDescription = d
			attrs[name] = x
		case schema.Int64Attribute:
			x.MarkdownDescription = d
			attrs[name] = x
		case schema.BoolAttribute:
			x.MarkdownDescription = d
			attrs[name] = x
		case schema.ListAttribute:
			x.MarkdownDescription = d
			attrs[name] = x
		case schema.SetAttribute:
			x.MarkdownDescription = d
			attrs[name] = x
		case schema.ListNestedAttribute:
			x.MarkdownDescription = d
			if err := describeAll(x.NestedObject.Attributes, at+"[*]."); err != nil {
				return err
			}
			attrs[name] = x
		case schema.SingleNestedAttribute:
			x.MarkdownDescription = d
			if err := describeAll(x.Attributes, at+"."); err != nil {
				return err
			}
			attrs[name] = x
		default:
			return fmt.Errorf("attribute %s: %T is not described by describeAll", at, a)
		}
	}
	return nil
}
