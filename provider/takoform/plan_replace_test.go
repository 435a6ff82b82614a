package takoform

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestFieldImmutableOnlyInTheRecordedVersionReplaces: size and labels_json are
// immutable in Gadget 0.3.0 and updatable in 0.2.0, so changing them replaces a 0.3.0
// Gadget and updates a 0.2.0 one in place: the recorded ref decides, not the kind. A
// JSON map changes by its object, not its spelling.
func TestFieldImmutableOnlyInTheRecordedVersionReplaces(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		version string
		replace bool
	}{{"0.3.0", true}, {"0.2.0", false}} {
		t.Run(c.version, func(t *testing.T) {
			h, st := threeGadgets(t, c.version)
			cfg := func(size int64, labels string) values {
				return values{aName: s("g2"), "holder": st["holder"], "size": i64(size), "labels_json": s(labels), aFormDefVersion: s(c.version)}
			}
			st = h.create(gadgetType, cfg(3, `{"team":"web"}`))
			for _, ch := range []struct {
				attr   string
				cfg    values
				change bool
			}{
				{"size", cfg(4, `{"team":"web"}`), true},
				{"labels_json", cfg(3, `{"team":"api"}`), true},
				{"labels_json", cfg(3, `{ "team" : "web" }`), false},
			} {
				pr := h.plan(gadgetType, ch.cfg, st)
				mustNoError(t, "plan", pr.diags)
				got := strings.Contains(strings.Join(pr.replace, " "), `AttributeName("`+ch.attr+`")`)
				if want := c.replace && ch.change; got != want {
					t.Errorf("%s on %s: RequiresReplace = %v, want a replacement on it: %t", ch.attr, c.version, pr.replace, want)
				}
			}
		})
	}
}

// TestRevisionReplacedUnderItsOwnNameIsRefused: a revision (Holder) cannot change in
// place; with a fixed name its replacement would collide with itself, so the plan is
// refused at name. An unchanged revision plans cleanly, and one named from its owner
// gets a new name and is replaced without complaint.
func TestRevisionReplacedUnderItsOwnNameIsRefused(t *testing.T) {
	t.Parallel()
	fixed := values{aName: s("h"), "store": s("main")}
	h, _, st := holderWorld(t, hostsim.Config{}, fixed)
	mustNoError(t, "unchanged", h.plan("takoform_holder", fixed, st).diags)
	changed := values{aName: s("h"), "store": s("main"), "note": s("moved")}
	pr := h.plan("takoform_holder", changed, st)
	wantDiags(t, pr.diags, errorDiag("Revision Holder h would be replaced under the same name",
		"A revision cannot change in place, and a new revision under the same name would collide with the one it replaces.",
		"",
		"Resource: takoform_holder (dev/h)",
		"Form: example.forms.takokit.dev/v1alpha1 Holder@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/immutable-revision-same-name",
		"Retryable: no",
		"",
		"Let revision_owner derive the name, give the new content a new name, or — when the content is unchanged, as in relation-drift recovery — change revision_owner so the replacement gets a new name.").at("name"))
	owned := values{aRevisionOwner: s("app"), "store": s("main")}
	st = h.create("takoform_holder", owned)
	owned["note"] = s("moved")
	pr = h.plan("takoform_holder", owned, st)
	mustNoError(t, "a derived name follows the content", pr.diags)
	if len(pr.replace) == 0 || pr.planned.str(aName) == st.str(aName) {
		t.Errorf("replace=%v name %q -> %q; want a replacement under a new name", pr.replace, st.str(aName), pr.planned.str(aName))
	}
}

// TestRevisionWithRelationDriftIsReplaced: a revision whose pinned store was replaced
// outside the configuration is replaced (relation_drift_reason requires it), not
// re-pinned in place; its unchanged content keeps its derived name, so the plan is
// refused until revision_owner changes, which plans the replacement cleanly.
func TestRevisionWithRelationDriftIsReplaced(t *testing.T) {
	t.Parallel()
	owned := values{aRevisionOwner: s("app"), "store": s("main")}
	h, store, st := holderWorld(t, hostsim.Config{ConformanceProbes: true}, owned)
	removeOutOfBand(t, h, store)
	h.create("takoform_store", values{aName: s("main")})
	rd, d := h.read("takoform_holder", st)
	mustNoError(t, "read", d)
	if rd.str(aDrift) == "" {
		t.Fatalf("the holder must record drift after its store was replaced: %v", rd)
	}
	pr := h.plan("takoform_holder", owned, rd)
	// same content, same derived name: the drift's replacement is refused
	wantDiags(t, pr.diags, errorDiag("Revision Holder holder-26bde7e1bc8f-a172cedcae47 would be replaced under the same name",
		"A revision cannot change in place, and a new revision under the same name would collide with the one it replaces.",
		"",
		"Resource: takoform_holder (dev/holder-26bde7e1bc8f-a172cedcae47)",
		"Form: example.forms.takokit.dev/v1alpha1 Holder@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/immutable-revision-same-name",
		"Retryable: no",
		"",
		"Let revision_owner derive the name, give the new content a new name, or — when the content is unchanged, as in relation-drift recovery — change revision_owner so the replacement gets a new name.").at("name"))
	if st.str(aName) != "holder-26bde7e1bc8f-a172cedcae47" {
		t.Errorf("the holder's derived name is %q", st.str(aName))
	}
	owned[aRevisionOwner] = s("app-2")
	pr = h.plan("takoform_holder", owned, rd)
	mustNoError(t, "a new owner", pr.diags)
	if !strings.Contains(strings.Join(pr.replace, " "), `AttributeName("relation_drift_reason")`) || pr.planned.str(aName) == st.str(aName) {
		t.Errorf("replace=%v name=%q; want the drift replacement under a new name", pr.replace, pr.planned.str(aName))
	}
}

// TestNewRevisionOwnerForcesReplacement: a revision's new owner derives a new name,
// and the owner is what forces the replacement: the derived name is planned after
// the plan rules, so without the owner's rule nothing would.
func TestNewRevisionOwnerForcesReplacement(t *testing.T) {
	t.Parallel()
	owned := values{aRevisionOwner: s("app"), "store": s("main")}
	h, _, st := holderWorld(t, hostsim.Config{}, owned)
	owned[aRevisionOwner] = s("app-2")
	pr := h.plan("takoform_holder", owned, st)
	mustNoError(t, "a new owner", pr.diags)
	if strings.Join(pr.replace, " ") != `AttributeName("revision_owner")` {
		t.Errorf("replace=%v; want the new revision_owner to force it", pr.replace)
	}
	if pr.planned.str(aName) == st.str(aName) {
		t.Errorf("the new owner kept the derived name %q", st.str(aName))
	}
}

// holderWorld is a gadget host with store main and a Holder (a revision) of holder
// created on it; it returns the harness and the store's and the holder's states.
func holderWorld(t *testing.T, cfg hostsim.Config, holder values) (h *harness, store, st values) {
	t.Helper()
	h = gadgetHarness(t, cfg)
	store = h.create("takoform_store", values{aName: s("main")})
	return h, store, h.create("takoform_holder", holder)
}
