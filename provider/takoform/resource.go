package takoform

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// kindType is one generated resource type: its catalog model and derived schema.
type kindType struct {
	model      *kindModel
	schema     schema.Schema
	objectType types.ObjectType // the schema's value type, built once
	checks     []configCheck    // the schema's validators, run by ValidateConfig (rules.go)
	rules      planRules        // its plan modifiers, applied by ModifyPlan (rules.go)
}

func newKindType(cat *model.Catalog, k *model.Kind) (*kindType, error) {
	m, err := newKindModel(cat, k)
	if err != nil {
		return nil, err
	}
	sch, err := buildSchema(m)
	if err != nil {
		return nil, err
	}
	ot, ok := sch.Type().(types.ObjectType)
	if !ok {
		return nil, fmt.Errorf("%s: schema type is %T", m.typeName, sch.Type())
	}
	checks := liftChecks(sch.Attributes)
	return &kindType{model: m, schema: sch, objectType: ot, checks: checks, rules: newPlanRules(m)}, nil
}

// Resource is the generated resource of one Form kind.
type Resource struct {
	kind *kindType
	// configured is the provider block's data when the framework made this instance
	// (it makes one per request); nil until the provider block is configured. It comes
	// from the Provider rather than through resource.Configure, which the framework
	// would call, with three TRACE lines, on every request (docs/provider-design.md#plan-cost).
	configured *providerData
}

var (
	_ resource.ResourceWithModifyPlan     = (*Resource)(nil)
	_ resource.ResourceWithImportState    = (*Resource)(nil)
	_ resource.ResourceWithUpgradeState   = (*Resource)(nil)
	_ resource.ResourceWithValidateConfig = (*Resource)(nil)
)

func (r *Resource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.kind.model.typeName
}

func (r *Resource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.kind.schema
}

// ready reports (and diagnoses) a configured provider before any host call.
func (r *Resource) ready(d *diag.Diagnostics, name string) bool {
	if r.configured != nil && r.configured.client != nil {
		return true
	}
	(&report{summary: "The takoform provider is not configured", typeName: r.kind.model.typeName, name: name,
		what: "A host call was needed but the provider block has not been configured.", code: codeNotConfigured,
		repair: "Configure the takoform provider (endpoint and token, or TAKOFORM_ENDPOINT and TAKOFORM_TOKEN)."}).add(d)
	return false
}

// refOf reads the recorded exact FormRef of a state value; ok is false when incomplete.
func refOf(v values) (wire.FormRef, bool) {
	ref := wire.FormRef{APIVersion: v.str(aFormAPIVersion), Kind: v.str(aFormKind),
		DefinitionVersion: v.str(aFormDefVersion), SchemaDigest: v.str(aFormSchemaDigest)}
	return ref, ref.APIVersion != "" && ref.Kind != "" && ref.DefinitionVersion != "" && ref.SchemaDigest != ""
}

// stateForm resolves the state's recorded ref in the catalog, failing closed with
// no host request (docs/provider-design.md#recorded-ref).
func (r *Resource) stateForm(v values, d *diag.Diagnostics) *model.Form {
	m := r.kind.model
	ref, ok := refOf(v)
	if !ok {
		(&report{summary: "State has no exact Form identity for " + m.typeName + "." + v.str(aName), typeName: m.typeName,
			space: v.str(aSpace), name: v.str(aName), code: codeStateRefMissing,
			what:   "The state lacks one of form_api_version, form_kind, form_definition_version and form_schema_digest, so the provider cannot tell which Form definition this resource was created under. No request was sent: a request under a guessed Form would look like a deletion.",
			repair: "Remove the resource from state (tofu state rm) and import it again."}).add(d)
		return nil
	}
	f, found := m.cat.Form(ref)
	if !found || f.Ref.Kind != m.kind.Kind || f.Ref.APIVersion != m.kind.APIVersion {
		carried := ""
		for _, kf := range m.kind.Versions {
			carried += fmt.Sprintf("\n  %s %s@%s schema=%s", kf.Ref.APIVersion, kf.Ref.Kind, kf.Ref.DefinitionVersion, kf.Ref.SchemaDigest)
		}
		(&report{summary: "This provider does not carry the Form identity recorded in state", typeName: m.typeName,
			space: v.str(aSpace), name: v.str(aName), ref: &ref, code: codeStateRefUnsupported,
			what:   "The state records a Form this build does not carry. No request was sent. This build carries:" + carried,
			repair: "Use a provider build whose catalog carries the recorded Form, or remove the resource from state and import it."}).add(d)
		return nil
	}
	return f
}

// timeout reads a duration attribute with its default.
func timeout(v values, name string, def time.Duration) time.Duration {
	if s := v.str(name); s != "" {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			return d
		}
	}
	return def
}

const (
	defaultCreateTimeout = 20 * time.Minute
	defaultUpdateTimeout = 20 * time.Minute
	defaultDeleteTimeout = 30 * time.Minute
)
