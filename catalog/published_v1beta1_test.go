package catalog

import (
	"os"
	"testing"

	"github.com/takokit/takokit/catalog/reftest"
	"github.com/takokit/takokit/catalog/wire"
)

// The published family of the current lane loads unchanged (docs/catalog-rules.md#lanes):
// 15 Forms, the lane chosen by its operation table, the candidate set's resource types
// and maturity kept, and WorkerVersion's assets a closed object holding a relation.
func TestPublishedV1beta1FamilyLoads(t *testing.T) {
	dir := reftest.Lane(t, wire.V1beta1)
	c, err := Load(os.DirFS(dir))
	if err != nil {
		t.Fatalf("the published family in %s must load unchanged:\n%v", dir, err)
	}
	if got := len(c.Forms()); got != 15 {
		t.Errorf("loaded %d Forms, want 15", got)
	}
	if c.Lane() != wire.V1beta1 || c.LaneChoice().Source != "operations-v1beta1.json" {
		t.Errorf("lane %v chosen by %q, want v1beta1 chosen by operations-v1beta1.json", c.Lane(), c.LaneChoice().Source)
	}
	types := map[string]string{}
	for _, k := range c.Kinds() {
		types[k.Kind] = k.TypeName
		if m := k.Versions[0].Maturity; m != "experimental" {
			t.Errorf("%s: maturity %q, want the family's experimental", k.Kind, m)
		}
	}
	for kind, want := range map[string]string{
		"ObjectBucket":               "takoform_edge_object_bucket", // not derived from the kind
		"StaticAssetBundle":          "takoform_static_asset_bundle",
		"SQLiteMigrationSet":         "takoform_sqlite_migration_set",
		"SQLiteMigrationApplication": "takoform_sqlite_migration_application",
	} {
		if types[kind] != want {
			t.Errorf("%s: type name %q, want %q", kind, types[kind], want)
		}
	}
	k, _ := c.Kind("edge.forms.takoform.com/v1beta1", "WorkerVersion")
	wv := k.DefaultCreate()
	assets, ok := wv.Field("assets")
	if !ok || assets.Kind != FieldObject || assets.Required || len(assets.Members) != 3 || !wv.Immutable["/assets"] {
		t.Fatalf("WorkerVersion assets: %+v (immutable %v)", assets, wv.Immutable["/assets"])
	}
	bundle := wv.ObjectMember("/assets/bundle")
	if bundle == nil || bundle.Kind != FieldReference || !bundle.Required || bundle.Ref.Kind != "StaticAssetBundle" {
		t.Errorf("/assets/bundle: %+v", bundle)
	}
	found := false
	for _, r := range wv.Relations {
		if r.Pointer == "/assets/bundle" && r.TargetKind == "StaticAssetBundle" && len(r.TargetFormRefs) == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("no exact-FormRef relation at /assets/bundle among %v", wv.Relations)
	}
}
