package hostview

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/profile"
)

// Refusals names, one clause each and in a fixed order, every statement of a
// profile that the full profile does not make: a selection's include (an empty
// one as "none") and a non-empty exclude, no endpoint assignment (only when
// assign is false), operations, enums, ranges and limits by their paths, and a
// support surface other than served; a statement full makes too is none.
func TestRefusalsNameEveryClause(t *testing.T) {
	doc := func(s string) *profile.Profile {
		var d map[string]any
		if err := json.Unmarshal([]byte(s), &d); err != nil {
			t.Fatal(err)
		}
		return &profile.Profile{Doc: d}
	}
	full := doc(`{"endpoints":{"assign":true},"support":"served","limits":{"Shared":{"maximumBundleFiles":64}}}`)
	p := doc(`{
		"forms":{"include":["Kv","Queue"],"exclude":[]},
		"interfaces":{"include":[]},
		"bindings":{"exclude":["b1","b2"]},
		"endpoints":{"assign":false},
		"operations":{"Kv":["create","read"]},
		"supportedEnums":{"Kv":{"tier":["small"]}},
		"supportedRanges":{"Queue":{"retries":{"max":3}}},
		"limits":{"Shared":{"maximumBundleFiles":64},"Worker":{"maximumBundleFiles":16,"maximumBundleBytes":1024}},
		"support":"absent"}`)
	want := []string{
		"forms included only: Kv, Queue",
		"interfaces included only: none",
		"bindings excluded: b1, b2",
		noEndpoints,
		`operations.Kv=["create","read"]`,
		`supportedEnums.Kv.tier=["small"]`,
		"supportedRanges.Queue.retries.max=3",
		"limits.Worker.maximumBundleBytes=1024",
		"limits.Worker.maximumBundleFiles=16",
		"support surface: absent",
	}
	if got := Refusals(p, full); !slices.Equal(got, want) {
		t.Errorf("refusals:\n got %q\nwant %q", got, want)
	}
	// what full states, and an endpoints block that does not say false, refuse nothing
	same := doc(`{"endpoints":{},"support":"served","limits":{"Shared":{"maximumBundleFiles":64}}}`)
	if got := Refusals(same, full); len(got) != 0 {
		t.Errorf("a profile stating only what full states refuses %q", got)
	}
	// a served support surface refuses nothing, even beside a full that does not say so
	if got := Refusals(doc(`{"support":"served"}`), doc(`{}`)); len(got) != 0 {
		t.Errorf("a served support surface refuses %q", got)
	}
}
