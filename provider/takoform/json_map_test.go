package takoform

import (
	"slices"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// Json-map attributes (a JSON object in a string, such as vars_json) of the gadget
// catalog edited for the case: every json-map of the embedded catalog belongs to a
// revision (a change replaces it) and is declared by its Form's newest version.

// TestJSONMapMemberChangingTypeIsAnUpdate: a member of an in-place json-map that
// changes from the string "1" to the number 1 is a change, not a reformatting: the
// update is sent, and the host then holds the number. (The two print alike in Go,
// so the comparison must be of canonical JSON.)
func TestJSONMapMemberChangingTypeIsAnUpdate(t *testing.T) {
	t.Parallel()
	h := settingsHarness(t)
	cfg := values{aName: s("g"), "holder": s("h"), "size": i64(3), "settings_json": s(`{"a":"1"}`)}
	st := h.create(gadgetType, cfg)
	cfg["settings_json"] = s(`{"a":1}`)
	pr := h.plan(gadgetType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if len(pr.replace) != 0 {
		t.Fatalf("settings is not immutable, yet the plan replaces %v", pr.replace)
	}
	up, d, routes := applyRoutes(t, h, gadgetType, cfg, st, pr.planned)
	mustNoError(t, "apply", d)
	if got, want := routes, []string{"GET forms", "POST prepare", "PUT apply"}; !slices.Equal(got, want) {
		t.Errorf("the update sent %q, want %q", got, want)
	}
	if up.str(aGeneration) != "2" {
		t.Errorf("generation after the update = %q, want 2", up.str(aGeneration))
	}
	rd, d := h.read(gadgetType, up)
	mustNoError(t, "read", d)
	if got := rd.str("settings_json"); got != `{"a":1}` {
		t.Errorf("the host holds settings %s, want {\"a\":1}", got)
	}
}

// TestJSONMapBoundOfAnOlderVersionChecksTheAttribute: the newest version dropped
// labels; the older version that declares it bounds it (maxProperties), and that bound
// is the attribute's.
func TestJSONMapBoundOfAnOlderVersionChecksTheAttribute(t *testing.T) {
	t.Parallel()
	dir := gadgetDir(t)
	reseal(t, dir, gadgetPkg(dir, "0.1.0"), true, func(def map[string]any) {
		gadgetProps(def)["labels"].(map[string]any)["maxProperties"] = 2
	}, nil)
	reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
		delete(gadgetProps(def), "labels")
	}, nil)
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	cfg := values{aName: s("g"), "holder": s("h"), "size": i64(3), aFormDefVersion: s("0.1.0"),
		"labels_json": s(`{"a":"x","b":"y","c":"z"}`)}
	wantDiags(t, h.plan(gadgetType, cfg, nil).diags,
		errorDiag("Too many members", "The object has 3 members; at most 2 are allowed.").at("labels_json"))
	cfg["labels_json"] = s(`{"a":"x","b":"y"}`)
	mustNoError(t, "two labels", h.plan(gadgetType, cfg, nil).diags)
}

// TestJSONMapRefreshKeepsTheConfiguredSpelling: a refresh of an in-place json-map
// whose host answers the same object in another spelling (members in another order,
// other spacing) keeps the configured text, so the next plan shows no change; an
// object that differs in a member's value is taken from the host, in the host's
// spelling (docs/provider-design.md#desired-fields).
func TestJSONMapRefreshKeepsTheConfiguredSpelling(t *testing.T) {
	t.Parallel()
	h := settingsHarness(t)
	spelled := `{ "b": [1, 2],  "a": {"y": true, "x": null} }`
	cfg := values{aName: s("g"), "holder": s("h"), "size": i64(3), "settings_json": s(spelled)}
	st := h.create(gadgetType, cfg)
	rd, d := h.read(gadgetType, st)
	mustNoError(t, "read", d)
	if got := rd.str("settings_json"); got != spelled {
		t.Errorf("settings_json after the refresh = %s, want the configured spelling %s", got, spelled)
	}
	pr := h.plan(gadgetType, cfg, rd)
	mustNoError(t, "plan", pr.diags)
	wantPlannedUnchanged(t, "plan after the refresh", rd, pr.planned)

	// the host's object changes (another workspace applies another value): the
	// refresh takes it, in the host's spelling
	other := cfg.clone()
	other["settings_json"] = s(`{"b":[1,2],"a":{"y":false,"x":null}}`)
	pr = h.plan(gadgetType, other, rd)
	mustNoError(t, "plan of the other value", pr.diags)
	if _, d := h.apply(gadgetType, other, rd, pr.planned); hasError(d) {
		t.Fatalf("apply of the other value: %v", d)
	}
	changed := `{"a":{"x":null,"y":false},"b":[1,2]}`
	rd, d = h.read(gadgetType, rd)
	mustNoError(t, "read after the host's change", d)
	if got := rd.str("settings_json"); got != changed {
		t.Errorf("settings_json after the host's change = %s, want %s", got, changed)
	}
}

// settingsHarness is a host of the gadget catalog whose 0.2.0 gadget has an in-place
// json-map settings (settings_json), with the store main and the holder h a gadget
// refers to already made.
func settingsHarness(t *testing.T) *harness {
	t.Helper()
	dir := gadgetDir(t)
	reseal(t, dir, gadgetPkg(dir, "0.2.0"), true, func(def map[string]any) {
		gadgetProps(def)["settings"] = map[string]any{"type": "object", "additionalProperties": true, "description": "Settings."}
	}, nil)
	h := catalogHarness(t, loadCatalogDir(t, dir), hostsim.Config{})
	h.create("takoform_store", values{aName: s("main")})
	h.create("takoform_holder", values{aName: s("h"), "store": s("main")})
	return h
}
