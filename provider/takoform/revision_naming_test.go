package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestRevisionNamingWaitsForUnknownValues: name and revision_owner are checked
// only once both are known (docs/provider-design.md); an unknown one, the other
// unset, is neither a conflict nor a missing name, and the plan says nothing.
func TestRevisionNamingWaitsForUnknownValues(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	base := values{"worker": s("api"), "bundle": s("b"),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})}
	for _, tc := range []struct {
		name string
		set  values
	}{
		{"an unknown name, no owner", values{aName: types.StringUnknown()}},
		{"an unknown owner, no name", values{aRevisionOwner: types.StringUnknown()}},
		{"an unknown name beside an owner", values{aName: types.StringUnknown(), aRevisionOwner: s("team")}},
	} {
		cfg := base.clone()
		for k, v := range tc.set {
			cfg[k] = v
		}
		pr := h.plan("takoform_worker_version", cfg, nil)
		wantDiags(t, pr.diags)
		if t.Failed() {
			t.Fatalf("%s: the plan must wait for the unknown value", tc.name)
		}
	}
}

// TestCreateNamesARevisionThePlanLeftUnnamed: a plan that left a revision's name
// unknown (its revision_owner or content was unknown when it was made) is named at
// apply by the function the plan uses, from the values then known: the create makes
// the revision under the name a plan of the same values derives.
func TestCreateNamesARevisionThePlanLeftUnnamed(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	cfg := values{aRevisionOwner: s("other"), "worker": s("api"), "bundle": s(h.bundleName(t)),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")})}
	pr := h.plan("takoform_worker_version", cfg, nil)
	mustNoError(t, "plan", pr.diags)
	want := pr.planned.str(aName)
	if want == "" {
		t.Fatalf("the plan derived no name: %v", pr.planned[aName])
	}
	planned := pr.planned.clone()
	planned[aName] = types.StringUnknown()
	st, d := h.apply("takoform_worker_version", cfg, nil, planned)
	mustNoError(t, "apply", d)
	if st.str(aName) != want || !st.known(aUID) {
		t.Errorf("created as %q (uid %v), want the derived name %q", st.str(aName), st[aUID], want)
	}
}
