package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
	wantDiags(t, pr.diags, errorDiag("vars_json has more entries than the host accepts",
		"3 entries planned; maximumVars = 2. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_version (dev/version-f27c43730f79-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/vars",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"Use at most 2 entries in vars_json, or another host.").at("vars_json"))
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
	wantDiags(t, h.plan(capVersionType, ver, nil).diags, errorDiag("vars_json has more entries than the host accepts",
		"1 entry planned; maximumVars = 0. This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.",
		"",
		"Resource: takoform_worker_version (dev/version-7eca8e4a50e0-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/vars",
		"Code: takoform.provider/host-limit-exceeded",
		"Retryable: no",
		"",
		"This host accepts no entries in vars_json: leave it empty, or use another host.").at("vars_json"))
}
