package takoform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/takokit/takokit/hostsim"
)

// TestDesiredAttributeDescriptions: a desired attribute's description is the schema's
// own (a member's names it when the schema gives none), then says the default omitting
// it means, that changing it replaces the resource when no version can update it, and
// what a reference or a JSON map takes; object members and list item members the same
// (docs/provider-design.md#desired-fields).
func TestDesiredAttributeDescriptions(t *testing.T) {
	t.Parallel()
	dir := gadgetDir(t)
	addPlacement(t, dir)
	reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
		props := gadgetProps(def)
		delete(props["placement"].(map[string]any)["properties"].(map[string]any)["replicas"].(map[string]any), "description")
		item := props["items"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)
		item["weight"].(map[string]any)["description"] = "Weight."
	}, nil)
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	attrs := h.kind(gadgetType).schema.Attributes
	got := map[string]string{}
	for _, n := range []string{"holder", "size", "labels_json", "mode", "placement"} {
		got[n] = attrs[n].GetDescription()
	}
	for n, a := range attrs["placement"].(schema.SingleNestedAttribute).Attributes {
		got["placement."+n] = a.GetDescription()
	}
	for n, a := range attrs["items"].(schema.ListNestedAttribute).NestedObject.Attributes {
		got["items[]."+n] = a.GetDescription()
	}
	want := map[string]string{
		"holder":             "The holder. Changing it replaces the resource. The target resource's name.",
		"size":               "Size.",
		"labels_json":        "Labels. Omitting it means the default {}. One JSON object, e.g. jsonencode({...}).",
		"mode":               `Mode. Omitting it means the default "fast".`,
		"placement":          "Where the gadget runs.",
		"placement.zone":     "Zone. Changing it replaces the resource.",
		"placement.replicas": "Member replicas of placement.",
		"placement.store":    "Member store of placement. The target resource's name.",
		"items[].target":     "Member target of each items item. The target resource's name.",
		"items[].weight":     "Weight.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("descriptions (-want +got):\n%s", diff)
	}
}

// TestObjectMemberModes: a member the object's schema requires is Required, any other
// Optional, never both nor neither (OpenTofu refuses such a schema).
func TestObjectMemberModes(t *testing.T) {
	t.Parallel()
	h := withPlacement(t)
	got := map[string][2]bool{}
	for n, a := range h.kind(gadgetType).schema.Attributes["placement"].(schema.SingleNestedAttribute).Attributes {
		got[n] = [2]bool{a.IsRequired(), a.IsOptional()}
	}
	want := map[string][2]bool{"zone": {true, false}, "replicas": {false, true}, "store": {false, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("placement members [required optional] (-want +got):\n%s", diff)
	}
}

// TestManifestDigestOfAFormWithoutABundleIsOrdinary: only a Form addressed by its
// artifact manifest alone (a bundle kind) plans manifest_digest from local files, so
// only there is it Optional and Computed. A Form that merely has a manifestDigest
// among its fields takes it like any other field: optional without a default, here.
func TestManifestDigestOfAFormWithoutABundleIsOrdinary(t *testing.T) {
	t.Parallel()
	dir := gadgetDir(t)
	for _, v := range []string{"0.1.0", "0.2.0"} {
		reseal(t, dir, gadgetPkg(dir, v), true, func(def map[string]any) {
			gadgetProps(def)["manifestDigest"] = map[string]any{"type": "string", "pattern": "^sha256:[0-9a-f]{64}$", "description": "Digest."}
		}, nil)
	}
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	a := h.kind(gadgetType).schema.Attributes["manifest_digest"]
	if a == nil || a.IsRequired() || !a.IsOptional() || a.IsComputed() {
		t.Fatalf("manifest_digest of Gadget: %#v; want Optional only", a)
	}
}
