package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/hostsim"
)

// TestDesiredSpecProblemsNameTheirAttribute: what no attribute check covers (a JSON
// map's member types and depth) is found at plan by the whole-spec check against the
// Form's desired schema: an error at the attribute, with the pointer inside it, and
// nothing sent.
func TestDesiredSpecProblemsNameTheirAttribute(t *testing.T) {
	t.Parallel()
	gadgets := gadgetHarness(t, hostsim.Config{})
	h := newHarness(t, hostsim.Config{})
	ver := capVersion(h, "fetch")
	ver["vars_json"] = s(`{"A":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":1}}}}}}}}}`)
	for _, c := range []struct {
		h        *harness
		typeName string
		cfg      values
		want     diagnostic
	}{
		{gadgets, gadgetType, values{aName: s("g"), "holder": s("h"), "labels_json": s(`{"team":5}`)}, errorDiag("Invalid labels_json for Gadget g",
			"The desired spec breaks the Form's desired schema at /spec/labels/team: got number, want string. Nothing was sent.",
			"",
			"Resource: takoform_gadget (g)",
			"Form: example.forms.takokit.dev/v1alpha1 Gadget@0.2.0 schema=<sha256-1>",
			"Pointer: /spec/labels/team",
			"Code: takoform.provider/desired-invalid",
			"Retryable: no",
			"",
			"Change the value so it satisfies the Form's desired schema.").at("labels_json")},
		{h, capVersionType, ver, errorDiag("Invalid vars_json for WorkerVersion version-9a4d96d232d3-14c2529eb449",
			"The desired spec breaks the Form's desired schema at /spec/vars/A/b/c/d/e/f/g/h: got object, want boolean or null or number or string. Nothing was sent.",
			"",
			"Resource: takoform_worker_version (version-9a4d96d232d3-14c2529eb449)",
			"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
			"Pointer: /spec/vars/A/b/c/d/e/f/g/h",
			"Code: takoform.provider/desired-invalid",
			"Retryable: no",
			"",
			"Change the value so it satisfies the Form's desired schema.").at("vars_json")},
	} {
		before := capCounters(t, c.h).requests
		wantDiags(t, c.h.plan(c.typeName, c.cfg, nil).diags, c.want)
		if got := capCounters(t, c.h).requests - before; got != 0 {
			t.Errorf("%s: the refused plan made %d requests", c.want.Attribute, got)
		}
	}
}

// TestSpecProblemOutsideEveryAttribute: a problem whose pointer falls in no top-level
// attribute (the spec's root, or a member no attribute holds) is reported on the
// resource as a whole, still with its pointer, code and repair; one inside an attribute
// names that attribute, or the member of an object attribute it falls in.
func TestSpecProblemOutsideEveryAttribute(t *testing.T) {
	t.Parallel()
	h := withPlacement(t)
	form := h.kind(gadgetType).model.newest
	for _, c := range []struct {
		pointer, summary string
		attr             string
	}{
		{"", "Invalid desired spec for Gadget g", ""},
		{"/nothing", "Invalid desired spec for Gadget g", ""},
		{"/labels/team", "Invalid labels_json for Gadget g", "labels_json"},
		{"/placement/zone", "Invalid placement.zone for Gadget g", "placement.zone"},
		{"/placement/zone/deeper", "Invalid placement.zone for Gadget g", "placement.zone"},
		{"/placement/nothing", "Invalid placement for Gadget g", "placement"},
	} {
		rep := specProblem(gadgetType, form, "g", model.SchemaProblem{Pointer: c.pointer, Message: "broken"})
		var d diag.Diagnostics
		rep.add(&d)
		wantDiags(t, fromFramework(t, d), errorDiag(c.summary,
			"The desired spec breaks the Form's desired schema at /spec"+c.pointer+": broken. Nothing was sent.",
			"",
			"Resource: takoform_gadget (g)",
			"Form: example.forms.takokit.dev/v1alpha1 Gadget@0.2.0 schema=<sha256-1>",
			"Pointer: /spec"+c.pointer,
			"Code: takoform.provider/desired-invalid",
			"Retryable: no",
			"",
			"Change the value so it satisfies the Form's desired schema.").at(c.attr))
	}
}
