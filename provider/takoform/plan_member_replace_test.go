package takoform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/hostsim"
)

// TestMemberImmutableOnlyInTheRecordedVersionReplaces: placement.zone is immutable in
// Gadget 0.2.0 and updatable in 0.3.0, so no plan rule of the kind replaces on it (its
// description does not promise a replacement): the recorded ref decides. Moving the
// zone of a 0.2.0 Gadget replaces it at placement.zone; of a 0.3.0 one updates it in
// place. Changing replicas updates both in place.
func TestMemberImmutableOnlyInTheRecordedVersionReplaces(t *testing.T) {
	t.Parallel()
	dir := gadgetDir(t)
	addPlacement(t, dir)
	withGadget030(t, dir)
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	kt := h.kind(gadgetType)
	zone := kt.schema.Attributes["placement"].(schema.SingleNestedAttribute).Attributes["zone"]
	if got, want := zone.GetDescription(), "Zone."; got != want {
		t.Errorf("zone description %q, want %q (it replaces only under 0.2.0)", got, want)
	}
	h.create("takoform_store", values{aName: s("main")})
	holder := h.create("takoform_holder", values{aName: s("h"), "store": s("main")})
	ot := kt.objectType.AttrTypes["placement"].(types.ObjectType)
	for _, c := range []struct {
		version string
		replace []string // on moving the zone
	}{
		{"0.2.0", []string{`AttributeName("placement").AttributeName("zone")`}},
		{"0.3.0", nil},
	} {
		cfg := func(zone string, replicas attr.Value) values {
			return values{aName: s("g" + c.version[2:3]), "holder": s(holder.str(aName)), "size": i64(3), aFormDefVersion: s(c.version),
				"placement": types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"zone": s(zone), "replicas": replicas, "store": s("main")})}
		}
		st := h.create(gadgetType, cfg("east", types.Int64Null()))
		if st.str(aFormDefVersion) != c.version {
			t.Fatalf("created under %q, want %s", st.str(aFormDefVersion), c.version)
		}
		for _, ch := range []struct {
			what    string
			cfg     values
			replace []string
		}{
			{"move zone", cfg("west", types.Int64Null()), c.replace},
			{"add replicas", cfg("east", i64(3)), nil},
		} {
			pr := h.plan(gadgetType, ch.cfg, st)
			mustNoError(t, ch.what, pr.diags)
			if diff := cmp.Diff(ch.replace, pr.replace); diff != "" {
				t.Errorf("%s on %s: RequiresReplace (-want +got):\n%s", ch.what, c.version, diff)
			}
		}
	}
}
