package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// TestSpaceKnownOnlyAfterApplyIsNotReplacedByADefault: a space the configuration
// takes from another resource (unknown at plan) stays unknown in the plan — neither the
// provider's default space nor the prior state's stands in for it — and the plan is
// not refused for a missing space.
func TestSpaceKnownOnlyAfterApplyIsNotReplacedByADefault(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{}) // the provider's default space is dev
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aSpace: types.StringUnknown()}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "create plan", pr.diags)
	if !pr.planned[aSpace].IsUnknown() {
		t.Errorf("create: space planned %v, want unknown", pr.planned[aSpace])
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	pr = h.plan(queueType, cfg, st)
	mustNoError(t, "update plan", pr.diags)
	if !pr.planned[aSpace].IsUnknown() {
		t.Errorf("existing resource: space planned %v, want unknown (the prior %q would hide a move)", pr.planned[aSpace], st.str(aSpace))
	}
}

// TestCreateResolvesWhatThePlanLeftUnknown: a plan made before the provider knew
// its configuration leaves the space and the Form unknown; the create fills them in
// with the functions the plan uses (the provider's default space, the newest
// definition version the host supports) and creates exactly that.
func TestCreateResolvesWhatThePlanLeftUnknown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{}) // the provider's default space is dev
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	known := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", known.diags)
	planned := known.planned.clone()
	for _, k := range []string{aSpace, aFormAPIVersion, aFormKind, aFormDefVersion, aFormSchemaDigest, aFormPackageDigest} {
		planned[k] = types.StringUnknown()
	}
	st, d := h.apply(queueType, cfg, nil, planned)
	mustNoError(t, "create", d)
	for _, k := range []string{aSpace, aFormAPIVersion, aFormKind, aFormDefVersion, aFormSchemaDigest, aFormPackageDigest} {
		if !st[k].Equal(known.planned[k]) {
			t.Errorf("%s: created with %v, the plan that knew it says %v", k, st[k], known.planned[k])
		}
	}
	got, d := h.read(queueType, st)
	mustNoError(t, "read", d)
	if got.str(aUID) != st.str(aUID) || got.str(aSpace) != "dev" {
		t.Errorf("the host holds %v, want dev/orders as created (%v)", got, st)
	}
}

// TestCreateResolvesAnUnknownRefToTheConfiguredVersion: a plan that left the FormRef
// unknown but knows form_definition_version creates under that version, not the newest.
func TestCreateResolvesAnUnknownRefToTheConfiguredVersion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}
	known := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", known.diags)
	if v := known.planned.str(aFormDefVersion); v != "0.1.0" || v == kindByType(t, h.p, queueType).model.newest.Ref.DefinitionVersion {
		t.Fatalf("the plan is under %q; the test needs the older version 0.1.0", v)
	}
	planned := known.planned.clone()
	for _, k := range []string{aFormAPIVersion, aFormKind, aFormSchemaDigest, aFormPackageDigest} {
		planned[k] = types.StringUnknown()
	}
	st, d := h.apply(queueType, cfg, nil, planned)
	mustNoError(t, "create", d)
	for _, k := range []string{aFormAPIVersion, aFormKind, aFormDefVersion, aFormSchemaDigest, aFormPackageDigest} {
		if !st[k].Equal(known.planned[k]) {
			t.Errorf("%s: created with %v, the plan that knew it says %v", k, st[k], known.planned[k])
		}
	}
}
