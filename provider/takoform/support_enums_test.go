package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestSupportEnumRefusesAStringEnumValue: no embedded Form has a single string enum
// field, so the gadget catalog's Gadget.mode (fast | slow) stands in: a host whose
// profile accepts only "fast" refuses "slow" at plan, at the attribute, and the
// default "fast" plans cleanly.
func TestSupportEnumRefusesAStringEnumValue(t *testing.T) {
	h := gadgetHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"fast-only","extends":"full",
		"supportedEnums":{"Gadget":{"mode":["fast"]}}}`)})
	cfg := values{aName: s("g"), "holder": s("h"), "mode": s("slow")}
	pr := h.plan(gadgetType, cfg, nil)
	wantDiags(t, pr.diags, errorDiag(`Host does not accept mode = "slow"`,
		`The value is valid for the Form; this host accepts exactly "fast". This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.`,
		"",
		"Resource: takoform_gadget (dev/g)",
		"Form: example.forms.takokit.dev/v1alpha1 Gadget@0.2.0 schema=<sha256-1>",
		"Pointer: /spec/mode",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use an accepted value, or another host.").at("mode"))
	cfg["mode"] = s("fast")
	mustNoError(t, "an accepted value", h.plan(gadgetType, cfg, nil).diags)
	delete(cfg, "mode")
	pr = h.plan(gadgetType, cfg, nil)
	mustNoError(t, "the default", pr.diags)
	if pr.planned.str("mode") != "fast" {
		t.Errorf("mode planned %v, want the default fast", pr.planned["mode"])
	}
}

// TestSupportSkipsNullAndUnknownValues: a value the plan leaves null (Gadget.size, no
// default) or unknown (mode from another resource) is not checked at plan, whatever
// the host narrows; apply still checks. A known value outside the range is refused.
func TestSupportSkipsNullAndUnknownValues(t *testing.T) {
	h := gadgetHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"narrow-gadgets","extends":"full",
		"supportedEnums":{"Gadget":{"mode":["fast"]}},"supportedRanges":{"Gadget":{"size":{"minimum":2}}}}`)})
	cfg := values{aName: s("g"), "holder": s("h"), "mode": types.StringUnknown()}
	pr := h.plan(gadgetType, cfg, nil)
	mustNoError(t, "null size, unknown mode", pr.diags)
	if len(pr.diags) != 0 || !pr.planned["size"].IsNull() || !pr.planned["mode"].IsUnknown() {
		t.Fatalf("want a quiet plan with size null and mode unknown; size=%v mode=%v:\n%s", pr.planned["size"], pr.planned["mode"], dump(pr.diags))
	}
	cfg["size"] = i64(1)
	wantDiags(t, h.plan(gadgetType, cfg, nil).diags, errorDiag("Host does not accept size = 1",
		"The value is valid for the Form; this host accepts 2 or more. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_gadget (dev/g)",
		"Form: example.forms.takokit.dev/v1alpha1 Gadget@0.2.0 schema=<sha256-1>",
		"Pointer: /spec/size",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use 2 or more, or another host.").at("size"))
}
