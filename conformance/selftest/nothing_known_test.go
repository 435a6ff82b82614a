package selftest

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/synthetic"
	"github.com/takokit/takokit/conformance"
)

// TestChecksOnAHostInstallingNoFormTheRunnerKnows: a runner whose catalog holds
// only the synthetic conformance Forms, against a host that installs everything
// but those (testdata/synthetic-withheld.json), finds no Form it knows
// installed. The checks that walk the installed Forms must then end as the
// table says, not pass over nothing or index an empty list: forms-exact-
// availability and form-definition-exact are not-applicable, and the two support refusal checks still ask
// what they can (an unknown FormRef, the catalog's Forms the host lacks) and pass.
func TestChecksOnAHostInstallingNoFormTheRunnerKnows(t *testing.T) {
	t.Parallel() // its own hostsim process
	want := map[string]conformance.Status{
		"forms-exact-availability":             conformance.StatusNotApplicable,
		"form-definition-exact":                conformance.StatusNotApplicable,
		"support-form-refusal-is-form-unknown": conformance.StatusPass,
		"support-profile-enforced-at-apply":    conformance.StatusPass,
	}
	ids := narrowedTo(t, slices.Sorted(maps.Keys(want))...)
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, testProfile(t, "synthetic-withheld.json"))
	only, err := synthetic.Forms(cat)
	if err != nil || only == nil {
		t.Fatalf("the synthetic Forms of the embedded catalog: %v (nil: %v)", err, only == nil)
	}
	got := runChecks(t, ctx, sim.URL, only, ids)
	for _, id := range ids {
		if r := got[id]; r.Status != want[id] {
			t.Errorf("%s with no Form the runner knows installed: %s, want %s", id, r.Line(), want[id])
		}
	}
	if r, ok := got["forms-exact-availability"]; ok && !strings.Contains(r.Message, "installs no Form known to the runner's catalog") {
		t.Errorf("forms-exact-availability with no Form the runner knows installed: %s, want it to say so", r.Line())
	}
}
