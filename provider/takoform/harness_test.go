package takoform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// harness drives the provider the way OpenTofu does, through the protocol-6
// server, against an in-process hostsim.
type harness struct {
	t   *testing.T
	sim *hostsimtest.Sim
	p   *Provider
	srv tfprotov6.ProviderServer
	ctx context.Context
	// private carries each type's private state between calls, as OpenTofu does.
	private map[string][]byte
	bundle  string // the bundle withWorker created
}

func newHarness(t *testing.T, cfg hostsim.Config) *harness {
	t.Helper()
	sim := hostsimtest.Start(t, cfg)
	h := &harness{t: t, sim: sim, p: testProvider(t), ctx: context.Background(), private: map[string][]byte{}}
	srv, err := providerserver.NewProtocol6WithError(h.p)()
	if err != nil {
		t.Fatal(err)
	}
	h.srv = srv
	h.configure(map[string]string{"endpoint": sim.URL, "token": "sim-primary", "space": "dev"})
	return h
}

// unconfigure points h at a fresh provider whose block is never configured (its
// schema read first, as OpenTofu does); the host and h's kinds stay.
func (h *harness) unconfigure() {
	h.t.Helper()
	srv, err := providerserver.NewProtocol6WithError(testProvider(h.t))()
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := srv.GetProviderSchema(h.ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		h.t.Fatal(err)
	}
	h.srv = srv
}

// unknownConfig, as a provider attribute's value in harness.configure, makes it
// unknown (a value only known after apply, as OpenTofu sends one at plan time).
const unknownConfig = "<unknown>"

// configure sends the provider block cfg (attributes left out are null, unknownConfig
// is unknown; the boolean require_support_surface is written "true" or "false").
func (h *harness) configure(cfg map[string]string) []*tfprotov6.Diagnostic {
	h.t.Helper()
	typ := providerConfigType()
	vals := map[string]tftypes.Value{}
	for k, at := range typ.AttributeTypes {
		v, ok := cfg[k]
		switch {
		case !ok:
			vals[k] = tftypes.NewValue(at, nil)
		case v == unknownConfig:
			vals[k] = tftypes.NewValue(at, tftypes.UnknownValue)
		case at.Is(tftypes.Bool):
			vals[k] = tftypes.NewValue(tftypes.Bool, v == "true")
		default:
			vals[k] = tftypes.NewValue(tftypes.String, v)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.srv.GetProviderSchema(h.ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		h.t.Fatal(err)
	}
	// A plan whose support read fails pauses before its one retry (250 ms in a build);
	// no test here measures that pause (the client's tests hold it), and the plans
	// against a host that cannot answer would wait it each time.
	h.p.testClient.SupportRetryWait = time.Millisecond
	resp, err := h.srv.ConfigureProvider(h.ctx, &tfprotov6.ConfigureProviderRequest{Config: &dv})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.Diagnostics
}

// providerConfigType is the provider block's object type.
func providerConfigType() tftypes.Object {
	return tftypes.Object{AttributeTypes: map[string]tftypes.Type{"endpoint": tftypes.String, "space": tftypes.String,
		"token": tftypes.String, "require_support_surface": tftypes.Bool}}
}

func (h *harness) kind(typeName string) *kindType { return kindByType(h.t, h.p, typeName) }

// dyn encodes values of typeName (missing attributes null).
func (h *harness) dyn(typeName string, v values) *tfprotov6.DynamicValue {
	h.t.Helper()
	kt := h.kind(typeName)
	typ := kt.objectType.TerraformType(h.ctx)
	if v == nil {
		dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
		if err != nil {
			h.t.Fatal(err)
		}
		return &dv
	}
	raw, err := v.raw(h.ctx, kt.objectType)
	if err != nil {
		h.t.Fatal(err)
	}
	dv, err := tfprotov6.NewDynamicValue(typ, raw)
	if err != nil {
		h.t.Fatal(err)
	}
	return &dv
}

func (h *harness) undyn(typeName string, dv *tfprotov6.DynamicValue) values {
	h.t.Helper()
	if dv == nil {
		return nil
	}
	kt := h.kind(typeName)
	raw, err := dv.Unmarshal(kt.objectType.TerraformType(h.ctx))
	if err != nil {
		h.t.Fatal(err)
	}
	v, err := readValues(h.ctx, kt.objectType, raw)
	if err != nil {
		h.t.Fatal(err)
	}
	return v
}

// proposed is OpenTofu's proposed new state: configured values, else prior values
// of computed attributes (top level), else null.
func (h *harness) proposed(typeName string, config, prior values) values {
	kt := h.kind(typeName)
	out := values{}
	for name, a := range kt.schema.Attributes {
		if v, ok := config[name]; ok && v != nil && !v.IsNull() {
			out[name] = mergeNested(a, v, prior[name])
		} else if a.IsComputed() && prior != nil {
			out[name] = prior[name]
		}
	}
	return out
}

// mergeNested takes prior values of computed members of a list of nested objects,
// element by element, as OpenTofu's proposed new state does.
func mergeNested(a schema.Attribute, cfg, prior attr.Value) attr.Value {
	n, ok := a.(schema.ListNestedAttribute)
	cl, ok1 := cfg.(types.List)
	pl, ok2 := prior.(types.List)
	if !ok || !ok1 || !ok2 || cl.IsUnknown() || pl.IsNull() || len(cl.Elements()) != len(pl.Elements()) {
		return cfg
	}
	elems := make([]attr.Value, len(cl.Elements()))
	for i, e := range cl.Elements() {
		co, pe := e.(types.Object), pl.Elements()[i].(types.Object)
		vals := map[string]attr.Value{}
		for k, v := range co.Attributes() {
			if na := n.NestedObject.Attributes[k]; v.IsNull() && na.IsComputed() {
				v = pe.Attributes()[k]
			}
			vals[k] = v
		}
		elems[i] = types.ObjectValueMust(co.AttributeTypes(context.Background()), vals)
	}
	return types.ListValueMust(cl.ElementType(context.Background()), elems)
}

type planResult struct {
	planned values
	replace []string
	diags   []*tfprotov6.Diagnostic
}

func (h *harness) plan(typeName string, config, prior values) planResult {
	h.t.Helper()
	if config != nil {
		vr, err := h.srv.ValidateResourceConfig(h.ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: h.dyn(typeName, config)})
		if err != nil {
			h.t.Fatal(err)
		}
		if hasError(vr.Diagnostics) {
			return planResult{diags: vr.Diagnostics}
		}
	}
	var prop *tfprotov6.DynamicValue
	if config == nil {
		prop = h.dyn(typeName, nil)
	} else {
		prop = h.dyn(typeName, h.proposed(typeName, config, prior))
	}
	resp, err := h.srv.PlanResourceChange(h.ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
		PriorState: h.dyn(typeName, prior), ProposedNewState: prop, Config: h.dyn(typeName, config), PriorPrivate: h.private[typeName]})
	if err != nil {
		h.t.Fatal(err)
	}
	h.private[typeName+"/planned"] = resp.PlannedPrivate
	pr := planResult{diags: resp.Diagnostics}
	if resp.PlannedState != nil && !hasError(resp.Diagnostics) {
		pr.planned = h.undyn(typeName, resp.PlannedState)
	}
	for _, p := range resp.RequiresReplace {
		pr.replace = append(pr.replace, p.String())
	}
	return pr
}

func (h *harness) apply(typeName string, config, prior, planned values) (values, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	var pl *tfprotov6.DynamicValue
	if planned == nil {
		pl = h.dyn(typeName, nil)
	} else {
		pl = h.dyn(typeName, planned)
	}
	resp, err := h.srv.ApplyResourceChange(h.ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName,
		PriorState: h.dyn(typeName, prior), PlannedState: pl, Config: h.dyn(typeName, config), PlannedPrivate: h.private[typeName+"/planned"]})
	if err != nil {
		h.t.Fatal(err)
	}
	h.private[typeName] = resp.Private
	got := h.undyn(typeName, resp.NewState)
	// OpenTofu's consistency rule: a value known in the plan must come back unchanged.
	if planned != nil && got != nil && !hasError(resp.Diagnostics) {
		for k, v := range planned {
			if wholeKnown(v) && !got[k].Equal(v) {
				h.t.Errorf("Provider produced inconsistent result after apply: %s.%s planned %v, got %v", typeName, k, v, got[k])
			}
		}
	}
	wantWhollyKnown(h.t, "apply", typeName, got)
	return got, resp.Diagnostics
}

// wantWhollyKnown fails t when a state the provider returned holds an unknown value
// at any depth: OpenTofu refuses such a state after apply, refresh and import ("the
// provider produced an invalid new value").
func wantWhollyKnown(t *testing.T, op, typeName string, st values) {
	t.Helper()
	for k, v := range st {
		if v != nil && !wholeKnown(v) {
			t.Errorf("Provider returned invalid result object after %s: %s.%s holds an unknown value (%v)", op, typeName, k, v)
		}
	}
}

func (h *harness) read(typeName string, state values) (values, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	resp, err := h.srv.ReadResource(h.ctx, &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: h.dyn(typeName, state), Private: h.private[typeName]})
	if err != nil {
		h.t.Fatal(err)
	}
	if !hasError(resp.Diagnostics) { // as OpenTofu: a refresh that fails writes nothing, private state included
		h.private[typeName] = resp.Private
	}
	got := h.undyn(typeName, resp.NewState)
	wantWhollyKnown(h.t, "refresh", typeName, got)
	return got, resp.Diagnostics
}

func (h *harness) importID(typeName, id string) (values, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	resp, err := h.srv.ImportResourceState(h.ctx, &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id})
	if err != nil {
		h.t.Fatal(err)
	}
	if hasError(resp.Diagnostics) || len(resp.ImportedResources) != 1 {
		return nil, resp.Diagnostics
	}
	got := h.undyn(typeName, resp.ImportedResources[0].State)
	wantWhollyKnown(h.t, "import", typeName, got)
	return got, resp.Diagnostics
}

// create plans and applies config from nothing, failing the test on errors.
func (h *harness) create(typeName string, config values) values {
	h.t.Helper()
	pr := h.plan(typeName, config, nil)
	mustNoError(h.t, "plan", pr.diags)
	st, d := h.apply(typeName, config, nil, pr.planned)
	mustNoError(h.t, "apply", d)
	return st
}

// settled is planned with every unknown value made null: the state a plan leaves when
// no host answered it, for tests that need a prior state without an apply.
func (h *harness) settled(typeName string, planned values) values {
	h.t.Helper()
	st := planned.clone()
	for k, v := range st {
		if v.IsUnknown() {
			st[k] = nullOf(h.kind(typeName).objectType.AttrTypes[k])
		}
	}
	return st
}

// applyHandMade applies a plan made by hand (one OpenTofu never hands the provider)
// and fails t if any request reached the host: each such plan must be refused first.
func (h *harness) applyHandMade(typeName string, config, prior, planned values) (values, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	sent := len(requestRoutes(h.t, h))
	st, d := h.apply(typeName, config, prior, planned)
	if got := requestRoutes(h.t, h)[sent:]; len(got) != 0 {
		h.t.Errorf("applying a plan made by hand sent %q", got)
	}
	return st, d
}

// wantKept fails t unless the state an operation wrote is prior, unchanged.
func wantKept(t *testing.T, prior, kept values) {
	t.Helper()
	if kept == nil || !sameValues(prior, kept) {
		t.Errorf("the state written is %v; want the prior state kept: %v", kept, prior)
	}
}

// wantPlannedUnchanged fails t unless the plan named what planned every value of st as it is.
func wantPlannedUnchanged(t *testing.T, what string, st, planned values) {
	t.Helper()
	for k, v := range st {
		if !planned[k].Equal(v) {
			t.Errorf("%s changes %s: %v -> %v", what, k, v, planned[k])
		}
	}
}

func hasError(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func mustNoError(t *testing.T, what string, ds []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			t.Fatalf("%s: unexpected error %q:\n%s", what, d.Summary, d.Detail)
		}
	}
}

func dump(ds []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(string(rune('0'+d.Severity)) + " " + d.Summary + "\n" + d.Detail + "\n---\n")
	}
	return b.String()
}

func s(v string) attr.Value  { return types.StringValue(v) }
func i64(n int64) attr.Value { return types.Int64Value(n) }
