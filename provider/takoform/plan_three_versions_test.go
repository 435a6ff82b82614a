package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// Gadget in three versions (gadget catalog with withGadget030): markers
// gadget-0.1-to-0.2 and gadget-0.2-to-0.3, colour only in 0.3.0, size required in
// 0.3.0. Every kind of the embedded catalog has two versions, so these rules need it.

// threeGadgets starts a harness over the three-version catalog and creates a Gadget
// "g" under version (and the store and holder it needs).
func threeGadgets(t *testing.T, version string) (*harness, values) {
	t.Helper()
	dir := gadgetDir(t)
	withGadget030(t, dir)
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	h.create("takoform_store", values{aName: s("main")})
	holder := h.create("takoform_holder", values{aName: s("h"), "store": s("main")})
	st := h.create(gadgetType, values{aName: s("g"), "holder": s(holder.str(aName)), "size": i64(3), aFormDefVersion: s(version)})
	if st.str(aFormDefVersion) != version {
		t.Fatalf("created under %q, want %s", st.str(aFormDefVersion), version)
	}
	return h, st
}

func gadgetConfig(st values, extra values) values {
	cfg := values{aName: s("g"), "holder": st["holder"], "size": i64(3)}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

// TestTransitionMarkerFromAnotherVersionIsNotApplicable: a declared marker whose start
// is not the resource's recorded version is refused at plan, naming both, with no
// request sent.
func TestTransitionMarkerFromAnotherVersionIsNotApplicable(t *testing.T) {
	h, st := threeGadgets(t, "0.1.0")
	before := capCounters(t, h).requests
	pr := h.plan(gadgetType, gadgetConfig(st, values{aFormTransition: s("gadget-0.2-to-0.3")}), st)
	wantDiags(t, pr.diags, errorDiag("Gadget g is on Gadget@0.1.0, not on the start of gadget-0.2-to-0.3",
		"The marker moves Gadget@0.2.0 to Gadget@0.3.0. No request was sent.",
		"",
		"Resource: takoform_gadget (dev/g)",
		"Form: example.forms.takokit.dev/v1alpha1 Gadget@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/form-transition-not-applicable",
		"Retryable: no",
		"",
		"Remove form_transition, or set form_definition_version to the marker's target version (or leave it unset).").at("form_transition"))
	if got := capCounters(t, h).requests - before; got != 0 {
		t.Errorf("the refused plan made %d requests", got)
	}
}

// TestVersionChangeWithoutADirectMarkerSaysNoneIsDeclared: 0.1.0 to 0.3.0 has no
// marker of its own; the markers that start at 0.1.0 or end at 0.3.0 are not offered.
func TestVersionChangeWithoutADirectMarkerSaysNoneIsDeclared(t *testing.T) {
	h, st := threeGadgets(t, "0.1.0")
	pr := h.plan(gadgetType, gadgetConfig(st, values{aFormDefVersion: s("0.3.0")}), st)
	wantDiags(t, pr.diags, errorDiag("Changing the definition version of Gadget g needs a Form transition",
		"The resource is recorded under Gadget@0.1.0; moving it to 0.3.0 never happens by editing this attribute alone. No Form transition is declared for this pair.",
		"",
		"Resource: takoform_gadget (dev/g)",
		"Form: example.forms.takokit.dev/v1alpha1 Gadget@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/definition-version-change-needs-transition",
		"Retryable: no",
		"",
		`No Form transition moves this resource there: set form_definition_version back to "0.1.0" (or remove it), or replace the resource under a new name.`).at("form_definition_version"))
}

// TestFieldOfALaterVersionNamesTheMarkerThatBringsIt: a field the recorded version does
// not declare is refused at plan; the repair names the marker from that version whose
// target declares the field, or says to remove it when no marker from there does.
func TestFieldOfALaterVersionNamesTheMarkerThatBringsIt(t *testing.T) {
	for _, c := range []struct{ version, repair string }{
		{"0.2.0", `Move the resource with form_transition = "gadget-0.2-to-0.3" first, or remove colour.`},
		{"0.1.0", "Remove colour from the configuration."},
	} {
		t.Run(c.version, func(t *testing.T) {
			h, st := threeGadgets(t, c.version)
			pr := h.plan(gadgetType, gadgetConfig(st, values{"colour": s("red")}), st)
			wantDiags(t, pr.diags, errorDiag("colour is not part of Gadget "+c.version,
				"The resource's Form definition does not declare this field.",
				"",
				"Resource: takoform_gadget (g)",
				"Form: example.forms.takokit.dev/v1alpha1 Gadget@"+c.version+" schema=<sha256-1>",
				"Pointer: /spec/colour",
				"Code: takoform.provider/field-not-in-recorded-definition",
				"Retryable: no",
				"",
				c.repair).at("colour"))
		})
	}
}

// TestFieldRequiredOnlyByThePlannedVersion: size is optional in 0.2.0 and required in
// 0.3.0, so the schema makes it optional and the plan of a 0.3.0 Gadget requires it.
func TestFieldRequiredOnlyByThePlannedVersion(t *testing.T) {
	dir := gadgetDir(t)
	withGadget030(t, dir)
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	cfg := values{aName: s("g"), "holder": s("h")}
	pr := h.plan(gadgetType, cfg, nil)
	wantDiags(t, pr.diags, errorDiag("Missing required argument", "size is required by Gadget 0.3.0.").at("size"))
	cfg[aFormDefVersion] = s("0.2.0")
	mustNoError(t, "0.2.0 leaves size optional", h.plan(gadgetType, cfg, nil).diags)
}
