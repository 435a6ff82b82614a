package selftest

import (
	"net/http"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestTransitionChecksOverASpecTheToFormRefuses: a transition check moves the
// resource it made with the spec the host serves for it. When that spec does not
// validate under the transition's to-Form, the move cannot be asked for, and the
// check is not-applicable: it neither fails the host nor ends as a runner bug. A
// proxy serves every AtLeastOnceQueue 0.1.0 answer with messageRetentionSeconds one
// past what 0.2.0 (the to-Form on the test host) allows.
func TestTransitionChecksOverASpecTheToFormRefuses(t *testing.T) {
	t.Parallel() // its own hostsim process
	checks := narrowedTo(t, "form-transition-unknown-operation-is-404", "form-transition-undeclared-refused",
		"form-transition-digest-mismatch-refused", "form-transition-claim-fences-lifecycle",
		"form-transition-rejection-keeps-resource")
	ctx, sim, cat := startSim(t, hostsimBinary(t), "full")
	proxy, served := countedRewrite(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
		form, _ := doc["form"].(map[string]any)
		ref, _ := form["formRef"].(map[string]any)
		spec, ok := doc["spec"].(map[string]any)
		if doc["kind"] != "AtLeastOnceQueue" || ref["definitionVersion"] != "0.1.0" || !ok {
			return false
		}
		spec["messageRetentionSeconds"] = 1209601 // the two-week maximum, and one second
		return true
	})
	got := runChecks(t, ctx, proxy, cat, checks)
	if served.Load() == 0 {
		t.Fatal("no AtLeastOnceQueue 0.1.0 resource was served through the proxy: the test measured nothing")
	}
	for _, id := range checks {
		if r := got[id]; r.Status != conformance.StatusNotApplicable {
			t.Errorf("%s over a served spec 0.2.0 refuses: %s, want not-applicable", id, r.Line())
		}
	}
}
