package takoform

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/takokit/takokit/hostsim"
)

// A closed object property (model.FieldObject) is a single nested attribute: WorkerVersion's
// assets in the embedded catalog, and Gadget's placement below, whose zone member is
// immutable on a Form that can update in place.

const versionType = "takoform_worker_version"

// assetsValue is a WorkerVersion assets object.
func assetsValue(h *harness, bundle string, notFound string, runFirst bool) attr.Value {
	ot := h.kind(versionType).objectType.AttrTypes["assets"].(types.ObjectType)
	return types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"bundle": s(bundle),
		"not_found_handling": s(notFound), "run_worker_first": types.BoolValue(runFirst)})
}

// withStaticAssets creates the worker "api", a worker bundle and a static asset bundle
// from local files, and returns the harness with the two bundle names.
func withStaticAssets(t *testing.T, cfg hostsim.Config) (h *harness, bundle, assets string) {
	t.Helper()
	h = withWorker(t, cfg)
	st := h.create(assetsType, filesConfig(t, h, assetsType, indexHTML, appCSS))
	return h, h.bundleName(t), st.str(aName)
}

func versionWithAssets(h *harness, bundle string, assets attr.Value) values {
	return values{aRevisionOwner: s("api"), "worker": s("api"), "bundle": s(bundle),
		"handlers": types.SetValueMust(types.StringType, []attr.Value{s("fetch")}), "assets": assets}
}

// TestWorkerVersionAssetsRoundTrip: the schema makes assets an optional single nested
// attribute whose three members are required and described; a version created with
// assets keeps them through apply, refresh and import, and the next plan is empty; a
// version without assets sends none and reads back a null object.
func TestWorkerVersionAssetsRoundTrip(t *testing.T) {
	t.Parallel()
	h, bundle, assets := withStaticAssets(t, hostsim.Config{})
	a, ok := h.kind(versionType).schema.Attributes["assets"].(schema.SingleNestedAttribute)
	if !ok || !a.Optional || a.Required || a.MarkdownDescription == "" {
		t.Fatalf("assets: %T %+v", h.kind(versionType).schema.Attributes["assets"], a)
	}
	for _, mn := range []string{"bundle", "not_found_handling", "run_worker_first"} {
		if m := a.Attributes[mn]; m == nil || !m.IsRequired() || m.GetMarkdownDescription() == "" {
			t.Errorf("assets.%s: %+v", mn, m)
		}
	}
	cfg := versionWithAssets(h, bundle, assetsValue(h, assets, "single_page_application", true))
	st := h.create(versionType, cfg)
	if !st["assets"].Equal(cfg["assets"]) {
		t.Fatalf("state assets %v, want %v", st["assets"], cfg["assets"])
	}
	rd, d := h.read(versionType, st)
	mustNoError(t, "read", d)
	pr := h.plan(versionType, cfg, rd)
	mustNoError(t, "second plan", pr.diags)
	for k, v := range rd {
		if !pr.planned[k].Equal(v) {
			t.Errorf("second plan moves %s: %v -> %v", k, v, pr.planned[k])
		}
	}
	imp, d := h.importID(versionType, "dev/"+st.str(aName))
	mustNoError(t, "import", d)
	imp, d = h.read(versionType, imp)
	mustNoError(t, "read imported", d)
	if !imp["assets"].Equal(cfg["assets"]) {
		t.Errorf("imported assets %v, want %v", imp["assets"], cfg["assets"])
	}
	// changing a member is a new version: the name derived from the content moves
	changed := versionWithAssets(h, bundle, assetsValue(h, assets, "single_page_application", false))
	pr = h.plan(versionType, changed, rd)
	mustNoError(t, "plan changed assets", pr.diags)
	if pr.planned.str(aName) == st.str(aName) || len(pr.replace) == 0 {
		t.Errorf("changed assets: name %q (was %q), replace %v", pr.planned.str(aName), st.str(aName), pr.replace)
	}
	plainCfg := versionWithAssets(h, bundle, types.ObjectNull(a.GetType().(types.ObjectType).AttrTypes))
	plainCfg[aRevisionOwner] = s("plain") // withWorker's version has this content under owner api
	plain := h.create(versionType, plainCfg)
	if !plain["assets"].IsNull() {
		t.Errorf("a version without assets reads back %v", plain["assets"])
	}
}

// TestObjectCodecEncodesMembersAndReferences: a reference member travels as its
// reference node and a null member or object is omitted; decoding gives the same value.
func TestObjectCodecEncodesMembersAndReferences(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	form := h.kind(versionType).model.newest
	f, _ := form.Field("assets")
	v := assetsValue(h, "site", "none", false)
	enc, err := encodeValue(f, v)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(enc)
	want := `{"bundle":{"apiVersion":"edge.forms.takokit.dev/v1beta1","kind":"StaticAssetBundle","name":"site"},"notFoundHandling":"none","runWorkerFirst":false}`
	if string(got) != want {
		t.Errorf("encoded %s\nwant    %s", got, want)
	}
	var back any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatal(err)
	}
	dec, err := decodeValue(f, back)
	if err != nil || !dec.Equal(v) {
		t.Errorf("decoded %v (%v), want %v", dec, err, v)
	}
	if dec, err := decodeValue(f, nil); err != nil || !dec.IsNull() || !dec.Type(h.ctx).Equal(attrType(f)) {
		t.Errorf("an absent object decodes to %v (%v), want a null object", dec, err)
	}
	spec, err := encodeSpec(form, values{"assets": types.ObjectNull(attrType(f).(types.ObjectType).AttrTypes)})
	if _, has := spec["assets"]; err != nil || has {
		t.Errorf("a null object is omitted from the spec: %v (%v)", spec, err)
	}
}

// TestObjectMembersAreChecked: a missing required member, a value outside a member's
// enum and a reference name outside the name grammar are refused at the member's path.
func TestObjectMembersAreChecked(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	ot := h.kind(versionType).objectType.AttrTypes["assets"].(types.ObjectType)
	missing := types.ObjectValueMust(ot.AttrTypes, map[string]attr.Value{"bundle": types.StringNull(),
		"not_found_handling": s("none"), "run_worker_first": types.BoolValue(false)})
	for _, c := range []struct {
		assets attr.Value
		want   diagnostic
	}{
		{missing, errorDiag("Missing Configuration for Required Attribute",
			"Must set a configuration value for the assets.bundle attribute as the provider has marked it as required.",
			"",
			"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.").at("assets.bundle")},
		{assetsValue(h, "site", "spa", false), errorDiag("Value not allowed",
			`"spa" is not one of "none", "single_page_application".`).at("assets.not_found_handling")},
		{assetsValue(h, "Site_1", "none", false), errorDiag("Value does not match the required pattern",
			`"Site_1" must match ^[a-z][a-z0-9-]{0,62}$. A name is 1 to 63 lower-case letters, digits and hyphens, starting with a letter.`).at("assets.bundle")},
	} {
		pr := h.plan(versionType, versionWithAssets(h, "bundle-a", c.assets), nil)
		wantDiags(t, pr.diags, c.want)
	}
}

// TestObjectMemberSupportedEnumByDottedKey: a profile naming a member by its dotted
// wire path (assets.notFoundHandling, as hostsim's profiles do) refuses another value
// at plan, naming the member.
func TestObjectMemberSupportedEnumByDottedKey(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: capProfile(t, `{"name":"no-spa","extends":"full",
		"supportedEnums":{"WorkerVersion":{"assets.notFoundHandling":["none"]}}}`)})
	pr := h.plan(versionType, versionWithAssets(h, "bundle-a", assetsValue(h, "site", "single_page_application", false)), nil)
	wantDiags(t, pr.diags, errorDiag(`Host does not accept assets.not_found_handling = "single_page_application"`,
		`The value is valid for the Form; this host accepts exactly "none". This is a fact about this host, not about the configuration: the same configuration applies unchanged on a host that implements it.`,
		"",
		"Resource: takoform_worker_version (dev/version-3ceb8410e14d-14c2529eb449)",
		"Form: edge.forms.takokit.dev/v1beta1 WorkerVersion@0.1.0 schema=<sha256-1>",
		"Pointer: /spec/assets/notFoundHandling",
		"Code: takoform.provider/host-does-not-support-value",
		"Retryable: no",
		"",
		"Use an accepted value, or another host.").at("assets.not_found_handling"))
	mustNoError(t, "an accepted value", h.plan(versionType, versionWithAssets(h, "bundle-a", assetsValue(h, "site", "none", false)), nil).diags)
}

// withPlacement adds to Gadget 0.2.0 (which updates in place) an optional placement
// object: zone (an enum, immutable by its member pointer), replicas (an integer) and
// store (a reference).
func withPlacement(t *testing.T) *harness {
	t.Helper()
	dir := gadgetDir(t)
	addPlacement(t, dir)
	return catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
}

// addPlacement adds the placement object (zone immutable) to Gadget 0.2.0 in dir.
func addPlacement(t *testing.T, dir string) {
	t.Helper()
	reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
		items := gadgetProps(def)["items"].(map[string]any)["items"].(map[string]any)
		storeRef := items["properties"].(map[string]any)["target"] // a Store reference with its interface
		gadgetProps(def)["placement"] = map[string]any{"type": "object", "additionalProperties": false,
			"description": "Where the gadget runs.", "required": []any{"zone"},
			"properties": map[string]any{
				"zone":     map[string]any{"type": "string", "enum": []any{"east", "west"}, "description": "Zone."},
				"replicas": map[string]any{"type": "integer", "minimum": 1, "maximum": 9, "description": "Replicas."},
				"store":    storeRef,
			}}
		def["immutableFields"] = []any{"/holder", "/placement/zone"}
	}, nil)
}

// TestImmutableMemberReplacesAndTheRestUpdates: on a Form that can update, changing
// the immutable member replaces the resource at that member's path, while changing
// another member (or adding one) updates in place; the immutable member's
// description says so.
func TestImmutableMemberReplacesAndTheRestUpdates(t *testing.T) {
	t.Parallel()
	h := withPlacement(t)
	kt := h.kind(gadgetType)
	pl := kt.schema.Attributes["placement"].(schema.SingleNestedAttribute)
	if !strings.Contains(pl.Attributes["zone"].GetDescription(), "Changing it replaces the resource.") ||
		strings.Contains(pl.Attributes["replicas"].GetDescription(), "replaces") || strings.Contains(pl.GetDescription(), "replaces") {
		t.Errorf("descriptions: placement %q zone %q replicas %q", pl.GetDescription(), pl.Attributes["zone"].GetDescription(), pl.Attributes["replicas"].GetDescription())
	}
	h.create("takoform_store", values{aName: s("main")})
	holder := h.create("takoform_holder", values{aName: s("h"), "store": s("main")})
	ot := kt.objectType.AttrTypes["placement"].(types.ObjectType)
	cfg := func(zone string, replicas attr.Value) values {
		return values{aName: s("g"), "holder": s(holder.str(aName)), "placement": types.ObjectValueMust(ot.AttrTypes,
			map[string]attr.Value{"zone": s(zone), "replicas": replicas, "store": s("main")})}
	}
	st := h.create(gadgetType, cfg("east", types.Int64Null()))
	for _, c := range []struct {
		what    string
		cfg     values
		replace string
	}{
		{"add replicas", cfg("east", i64(3)), ""},
		{"move zone", cfg("west", types.Int64Null()), `AttributeName("placement").AttributeName("zone")`},
	} {
		pr := h.plan(gadgetType, c.cfg, st)
		mustNoError(t, c.what, pr.diags)
		got := strings.Join(pr.replace, " ")
		if (c.replace == "" && got != "") || (c.replace != "" && !strings.Contains(got, c.replace)) {
			t.Errorf("%s: RequiresReplace %v, want %q", c.what, pr.replace, c.replace)
		}
		if strings.Contains(got, `AttributeName("placement")]`) || got == `[AttributeName("placement")]` {
			t.Errorf("%s: the whole object was replaced: %v", c.what, pr.replace)
		}
	}
	pr := h.plan(gadgetType, cfg("east", i64(3)), st)
	up, d := h.apply(gadgetType, cfg("east", i64(3)), st, pr.planned)
	mustNoError(t, "update in place", d)
	if up.str(aUID) != st.str(aUID) || up.str(aGeneration) != "2" {
		t.Errorf("update: uid %q→%q generation %q", st.str(aUID), up.str(aUID), up.str(aGeneration))
	}
	// dropping the whole object drops the immutable member too
	none := values{aName: s("g"), "holder": s(holder.str(aName))}
	pr = h.plan(gadgetType, none, up)
	mustNoError(t, "drop placement", pr.diags)
	if !strings.Contains(strings.Join(pr.replace, " "), `AttributeName("placement").AttributeName("zone")`) {
		t.Errorf("dropping placement: RequiresReplace %v, want placement.zone", pr.replace)
	}
}
