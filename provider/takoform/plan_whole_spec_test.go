package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestDesiredSpecProblemsNameTheirAttribute: what no attribute check covers (a JSON
// map's member types and depth) is found at plan by the whole-spec check against the
// Form's desired schema: an error at the attribute, with the pointer inside it, and
// nothing sent.
func TestDesiredSpecProblemsNameTheirAttribute(t *testing.T) {
	gadgets := gadgetHarness(t, hostsim.Config{})
	h := newHarness(t, hostsim.Config{})
	ver := capVersion(h, "fetch")
	ver["vars_json"] = s(`{"A":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":1}}}}}}}}}`)
	for _, c := range []struct {
		h                                  *harness
		typeName                           string
		cfg                                values
		attr, summary, pointer, what, path string
	}{
		{gadgets, gadgetType, values{aName: s("g"), "holder": s("h"), "labels_json": s(`{"team":5}`)},
			"labels_json", "Invalid labels_json for Gadget g", "/spec/labels/team", "got number, want string", `AttributeName("labels_json")`},
		{h, capVersionType, ver, "vars_json", "Invalid vars_json for WorkerVersion version-", "/spec/vars/A/b/c/d/e/f/g/h",
			"got object, want boolean or null or number or string", `AttributeName("vars_json")`},
	} {
		before := capCounters(t, c.h).requests
		pr := c.h.plan(c.typeName, c.cfg, nil)
		d := diagWith(pr.diags, c.summary, c.what, "Pointer: "+c.pointer, codeDesiredInvalid, "Change the value so it satisfies the Form's desired schema.")
		if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil || d.Attribute.String() != c.path {
			t.Errorf("want %q at %s:\n%s", c.summary, c.path, dump(pr.diags))
		}
		if got := capCounters(t, c.h).requests - before; got != 0 {
			t.Errorf("%s: the refused plan made %d requests", c.attr, got)
		}
	}
}
