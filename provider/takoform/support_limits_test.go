package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestSupportLimitCountsTheMembersOfAJSONMap: a JSON map attribute (vars_json) counts
// its members against maximum + its wire name (maximumVars), like any collection.
func TestSupportLimitCountsTheMembersOfAJSONMap(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"two-vars","extends":"full",
		"limits":{"WorkerVersion":{"maximumVars":2}}}`)})
	ver := capVersion(h, "fetch")
	ver["vars_json"] = s(`{"A":1,"B":"two","C":[3]}`)
	pr := h.plan(capVersionType, ver, nil)
	d := diagWith(pr.diags, "vars_json has more entries than the host accepts", "3 planned, maximumVars = 2", "Use at most 2 entries.",
		codeHostLimitExceeded, "Pointer: /spec/vars")
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil || d.Attribute.String() != `AttributeName("vars_json")` {
		t.Fatalf("want the ceiling refusal at vars_json:\n%s", dump(pr.diags))
	}
	ver["vars_json"] = s(`{"A":1,"B":"two"}`)
	mustNoError(t, "at the ceiling", h.plan(capVersionType, ver, nil).diags)
}

// TestSupportReadsNoBindingRouteForAnEmptyBindingList: an empty binding list uses no
// binding, so a host without that binding plans it cleanly and its route is not read.
func TestSupportReadsNoBindingRouteForAnEmptyBindingList(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: "kv-only"})
	ver := capVersion(h, "fetch")
	ver["bucket_bindings"] = types.ListValueMust(bindingItemType(), []attr.Value{})
	pr := h.plan(capVersionType, ver, nil)
	mustNoError(t, "an empty bucket_bindings", pr.diags)
	if len(pr.diags) != 0 {
		t.Errorf("want a quiet plan:\n%s", dump(pr.diags))
	}
	form := h.kind(capVersionType).model.newest
	if c := capCounters(t, h); c.support != int64(1+len(form.Provided)) {
		t.Errorf("support reads = %d, want %d (the Form and its interfaces, no binding route)", c.support, 1+len(form.Provided))
	}
}

// TestSupportLimitCountsANullMapAsEmpty: a null JSON map holds no members, so even a
// limit of 0 accepts it; an empty map is at that ceiling too.
func TestSupportLimitCountsANullMapAsEmpty(t *testing.T) {
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"no-vars","extends":"full",
		"limits":{"WorkerVersion":{"maximumVars":0}}}`)})
	ver := capVersion(h, "fetch")
	for _, v := range []attr.Value{s(`{}`), types.StringNull()} {
		ver["vars_json"] = v
		pr := h.plan(capVersionType, ver, nil)
		mustNoError(t, "vars_json = "+v.String()+" under maximumVars = 0", pr.diags)
	}
	ver["vars_json"] = s(`{"A":1}`)
	if d := diagWith(h.plan(capVersionType, ver, nil).diags, "vars_json has more entries than the host accepts", "1 planned, maximumVars = 0"); d == nil {
		t.Errorf("one member under maximumVars = 0 was not refused")
	}
}
