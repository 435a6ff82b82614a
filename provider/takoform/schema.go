package takoform

import (
	"fmt"
	"github.com/takokit/takokit/provider/internal/lazyre"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/takokit/takokit/catalog/model"
)

// SchemaVersion is the state schema version of every resource type (docs/provider-design.md#recorded-ref).
const SchemaVersion = 1

// buildSchema derives the whole resource schema of one kind.
func buildSchema(m *kindModel) (schema.Schema, error) {
	attrs := envelopeAttrs(m)
	for i := range m.fields {
		f := &m.fields[i]
		a, err := desiredAttr(m, f)
		if err != nil {
			return schema.Schema{}, fmt.Errorf("%s: field %s: %w", m.typeName, f.Wire, err)
		}
		if _, dup := attrs[f.Attr]; dup {
			return schema.Schema{}, fmt.Errorf("%s: field %s collides with attribute %s", m.typeName, f.Wire, f.Attr)
		}
		attrs[f.Attr] = a
	}
	for _, o := range m.outputs {
		if _, dup := attrs[o.Attr]; dup {
			return schema.Schema{}, fmt.Errorf("%s: output %s collides with attribute %s", m.typeName, o.Wire, o.Attr)
		}
		attrs[o.Attr] = outputAttr(o)
	}
	if err := describeAll(attrs, m.typeName+"."); err != nil {
		return schema.Schema{}, err
	}
	return schema.Schema{
		Version:             SchemaVersion,
		Description:         resourceDescription(m),
		MarkdownDescription: resourceMarkdown(m),
		Attributes:          attrs,
	}, nil
}

func resourceDescription(m *kindModel) string {
	f := m.newest
	s := f.Title
	if f.Description != "" {
		s += ". " + strings.TrimSuffix(f.Description, ".") + "."
	}
	return fmt.Sprintf("%s (%s %s, role %s)", s, f.Ref.APIVersion, f.Ref.Kind, f.Role)
}

func computedString(desc string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, Description: desc}
}

func envelopeAttrs(m *kindModel) map[string]schema.Attribute {
	// plan rules (keep a prior value, replace on change) are ModifyPlan's: newPlanRules
	name := schema.StringAttribute{Required: true, Description: "Name of the resource on the host (metadata.name).",
		Validators: []validator.String{stringCheck(resourceNameRules)}}
	if m.revision {
		name.Required, name.Optional, name.Computed = false, true, true
		name.Description += " On a revision Form set either name or revision_owner."
	}
	condAttrs := map[string]schema.Attribute{}
	for _, n := range conditionAttrs {
		condAttrs[n] = schema.StringAttribute{Computed: true, Description: conditionDescriptions[n]}
	}
	markers := make([]string, len(m.markers))
	for i, t := range m.markers {
		markers[i] = t.Marker
	}
	attrs := map[string]schema.Attribute{
		aName: name,
		aSpace: schema.StringAttribute{Optional: true, Computed: true,
			Description: "Space of the resource; defaults to the provider's space.",
			Validators:  []validator.String{spaceValidator}},
		aUID:        computedString("Host-issued uid of this incarnation."),
		aGeneration: computedString("Desired-state generation (canonical decimal)."),
		aRevision:   computedString("Representation revision (canonical decimal)."),
		aConditions: schema.ListNestedAttribute{Computed: true, Description: "Status conditions as the host served them.",
			NestedObject: schema.NestedAttributeObject{Attributes: condAttrs}},
		aReady:             schema.BoolAttribute{Computed: true, Description: "Whether the Ready condition is True."},
		aOutputsJSON:       computedString("The whole status.outputs document as canonical JSON (\"{}\" when there is none)."),
		aFormAPIVersion:    computedString("Form group of the exact FormRef the resource is recorded under."),
		aFormKind:          computedString("Form kind of the recorded FormRef."),
		aFormSchemaDigest:  computedString("Schema digest of the recorded FormRef."),
		aFormPackageDigest: computedString("Catalog package digest of the recorded FormRef (audit only)."),
		aFormDefVersion: schema.StringAttribute{Optional: true, Computed: true,
			Description: "Definition version of the recorded FormRef. Set it on create to target an older version; changing it later needs form_transition.",
			Validators:  []validator.String{oneOf("a definition version this provider carries for "+m.kind.Kind, m.versions())}},
		aPendingOp: computedString("Operation the host accepted but had not finished at the last write; null otherwise."),
		aDrift:     computedString("ExternalChange or DependencyMissing when a pinned relation target changed outside this configuration."),
		aCreateTimeout: schema.StringAttribute{Optional: true, Validators: []validator.String{durationValidator},
			Description: "Bound for create, including 202 polling (Go duration, default 20m)."},
		aDeleteTimeout: schema.StringAttribute{Optional: true, Validators: []validator.String{durationValidator},
			Description: "Bound for delete, including 202 polling (Go duration, default 30m)."},
	}
	transition := schema.StringAttribute{Optional: true,
		Description: "Marker of a declared Form transition to move this resource to another definition version."}
	transition.Validators = []validator.String{markerCheck(m.kind.Kind, markers)}
	attrs[aFormTransition] = transition
	if m.anyUpdate {
		attrs[aUpdateTimeout] = schema.StringAttribute{Optional: true, Validators: []validator.String{durationValidator},
			Description: "Bound for update, including 202 polling (Go duration, default 20m)."}
	}
	if m.revision {
		attrs[aRevisionOwner] = schema.StringAttribute{Optional: true,
			Description: "Derives the revision name from its content; set either name or revision_owner.",
			Validators:  []validator.String{stringCheck(stringRules{pattern: lazyre.New(revisionOwnerPattern)})}}
	}
	if m.bundle != nil {
		for n, a := range m.bundle.attrs() {
			attrs[n] = a
		}
	}
	return attrs
}

func ptr(n int64) *int64 { return &n }

// outputAttr is plain Computed: no default, validator or plan modifier (decision 0025 rule 5).
func outputAttr(o model.Output) schema.Attribute {
	desc := o.Description
	if desc == "" {
		desc = "Output " + o.Wire + " reported by the host."
	}
	switch o.Type {
	case "integer":
		return schema.Int64Attribute{Computed: true, Description: desc}
	case "boolean":
		return schema.BoolAttribute{Computed: true, Description: desc}
	}
	return schema.StringAttribute{Computed: true, Description: desc}
}
