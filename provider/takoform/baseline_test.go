package takoform

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// baselinePath is the committed schema floor (docs/provider-design.md#recorded-ref).
var baselinePath = filepath.Join("..", "testdata", "schema-baseline.json")

type baselineAttr struct {
	Type      string `json:"type"`
	Required  bool   `json:"required,omitempty"`
	Optional  bool   `json:"optional,omitempty"`
	Computed  bool   `json:"computed,omitempty"`
	Sensitive bool   `json:"sensitive,omitempty"`
}

type baselineType struct {
	Version    int64                   `json:"version"`
	Attributes map[string]baselineAttr `json:"attributes"`
}

func currentBaseline(t *testing.T) map[string]baselineType {
	ctx := context.Background()
	out := map[string]baselineType{}
	for _, kt := range testProvider(t).kinds {
		bt := baselineType{Version: kt.schema.Version, Attributes: map[string]baselineAttr{}}
		for name, a := range kt.schema.Attributes {
			bt.Attributes[name] = baselineAttr{Type: a.GetType().TerraformType(ctx).String(), Required: a.IsRequired(),
				Optional: a.IsOptional(), Computed: a.IsComputed(), Sensitive: a.IsSensitive()}
		}
		out[kt.model.typeName] = bt
	}
	return out
}

// TestSchemaBaselineIsAFloor fails when an attribute disappears, changes type, turns
// Required, stops being Computed or Sensitive, a new attribute is Required, or a
// version goes down. TAKOKIT_WRITE_SCHEMA_BASELINE=1 rewrites the file and fails on
// purpose so the rewrite is committed deliberately.
func TestSchemaBaselineIsAFloor(t *testing.T) {
	t.Parallel()
	cur := currentBaseline(t)
	if os.Getenv("TAKOKIT_WRITE_SCHEMA_BASELINE") == "1" {
		b, _ := json.MarshalIndent(cur, "", "  ")
		if err := os.WriteFile(baselinePath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Fatalf("wrote %s; commit it deliberately and run the test again without TAKOKIT_WRITE_SCHEMA_BASELINE", baselinePath)
	}
	raw, err := os.ReadFile(baselinePath)
	if err != nil {
		t.Fatalf("%v (create it with TAKOKIT_WRITE_SCHEMA_BASELINE=1)", err)
	}
	var base map[string]baselineType
	if err := json.Unmarshal(raw, &base); err != nil {
		t.Fatal(err)
	}
	for _, problem := range compareBaseline(base, cur) {
		t.Error(problem)
	}
}

func compareBaseline(base, cur map[string]baselineType) []string {
	var out []string
	types := make([]string, 0, len(base))
	for k := range base {
		types = append(types, k)
	}
	sort.Strings(types)
	for _, typ := range types {
		b := base[typ]
		c, ok := cur[typ]
		if !ok {
			out = append(out, typ+": resource type disappeared")
			continue
		}
		if c.Version < b.Version {
			out = append(out, typ+": schema version went down")
		}
		for name, ba := range b.Attributes {
			ca, ok := c.Attributes[name]
			switch {
			case !ok:
				out = append(out, typ+"."+name+": attribute disappeared")
			case ca.Type != ba.Type:
				out = append(out, typ+"."+name+": type changed from "+ba.Type+" to "+ca.Type)
			case ca.Required && !ba.Required:
				out = append(out, typ+"."+name+": turned Required")
			case ba.Computed && !ca.Computed:
				out = append(out, typ+"."+name+": stopped being Computed")
			case ba.Sensitive && !ca.Sensitive:
				out = append(out, typ+"."+name+": stopped being Sensitive")
			}
		}
		for name, ca := range c.Attributes {
			if _, old := b.Attributes[name]; !old && ca.Required {
				out = append(out, typ+"."+name+": a new attribute may not be Required")
			}
		}
	}
	return out
}

func TestBaselineComparisonCatchesBreakingChanges(t *testing.T) {
	t.Parallel()
	base := map[string]baselineType{"takoform_x": {Version: 1, Attributes: map[string]baselineAttr{
		"a": {Type: "tftypes.String", Optional: true}, "b": {Type: "tftypes.String", Computed: true}}}}
	cases := map[string]baselineType{
		"attribute disappeared":    {Version: 1, Attributes: map[string]baselineAttr{"b": {Type: "tftypes.String", Computed: true}}},
		"type changed":             {Version: 1, Attributes: map[string]baselineAttr{"a": {Type: "tftypes.Number", Optional: true}, "b": {Type: "tftypes.String", Computed: true}}},
		"turned Required":          {Version: 1, Attributes: map[string]baselineAttr{"a": {Type: "tftypes.String", Required: true}, "b": {Type: "tftypes.String", Computed: true}}},
		"stopped being Computed":   {Version: 1, Attributes: map[string]baselineAttr{"a": {Type: "tftypes.String", Optional: true}, "b": {Type: "tftypes.String", Optional: true}}},
		"schema version went down": {Version: 0, Attributes: base["takoform_x"].Attributes},
		"may not be Required": {Version: 1, Attributes: map[string]baselineAttr{"a": {Type: "tftypes.String", Optional: true},
			"b": {Type: "tftypes.String", Computed: true}, "c": {Type: "tftypes.String", Required: true}}},
	}
	for want, cur := range cases {
		got := compareBaseline(base, map[string]baselineType{"takoform_x": cur})
		if len(got) != 1 || !contains2(got[0], want) {
			t.Errorf("%s: got %v", want, got)
		}
	}
	additive := map[string]baselineType{"takoform_x": {Version: 1, Attributes: map[string]baselineAttr{"a": {Type: "tftypes.String", Optional: true},
		"b": {Type: "tftypes.String", Computed: true}, "c": {Type: "tftypes.String", Optional: true, Computed: true}}}}
	if got := compareBaseline(base, additive); len(got) != 0 {
		t.Errorf("an additive change fails the floor: %v", got)
	}
}

func contains2(s, sub string) bool { return len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0) }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestUpgradeFromVersion0RoundTrips: a version-0 state comes back unchanged.
func TestUpgradeFromVersion0RoundTrips(t *testing.T) {
	t.Parallel()
	srv := protoServer(t)
	ctx := context.Background()
	kt := kindByType(t, testProvider(t), queueType)
	v := values{aName: s("orders"), aSpace: s("dev"), aUID: s("u-1"), aGeneration: s("3"), "message_retention_seconds": i64(60)}
	raw, err := v.raw(ctx, kt.objectType)
	if err != nil {
		t.Fatal(err)
	}
	js, err := tftypesJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: queueType, Version: 0,
		RawState: &tfprotov6.RawState{JSON: js}})
	if err != nil {
		t.Fatal(err)
	}
	mustNoError(t, "upgrade", resp.Diagnostics)
	got, err := resp.UpgradedState.Unmarshal(kt.objectType.TerraformType(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(raw) {
		t.Errorf("upgrade changed the state:\n got %v\nwant %v", got, raw)
	}
	// the framework never calls an upgrader without a prior state; the upgrader
	// still refuses one
	r := &Resource{kind: kt}
	var ur resource.UpgradeStateResponse
	r.upgradeFrom0(ctx, resource.UpgradeStateRequest{}, &ur)
	if !ur.Diagnostics.HasError() || ur.Diagnostics.Errors()[0].Summary() != "State to upgrade is missing" {
		t.Errorf("a missing prior state must be the error \"State to upgrade is missing\": %v", ur.Diagnostics)
	}
}

// tftypesJSON renders a value as state JSON (attribute name → JSON value).
func tftypesJSON(v tftypes.Value) ([]byte, error) {
	return json.Marshal(toGo(v))
}

func toGo(v tftypes.Value) any {
	if v.IsNull() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		f := new(big.Float)
		_ = v.As(&f)
		n, _ := f.Int64()
		return n
	case v.Type().Is(tftypes.Object{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := map[string]any{}
		for k, e := range m {
			out[k] = toGo(e)
		}
		return out
	default:
		var l []tftypes.Value
		_ = v.As(&l)
		out := []any{}
		for _, e := range l {
			out = append(out, toGo(e))
		}
		return out
	}
}
