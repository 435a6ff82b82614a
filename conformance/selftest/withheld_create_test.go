package selftest

import (
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestChecksPassOverFormsTheHostWillNotCreate: a check that needs a Form of
// some shape made looks only at the installed Forms the host offers create,
// read and delete for. On a host whose profile withholds create from the one
// Form of that shape, the check must be not-applicable, not apply the Form
// anyway and blame the host for refusing it.
func TestChecksPassOverFormsTheHostWillNotCreate(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	for _, h := range []struct {
		profile string   // in testdata
		checks  []string // each must be not-applicable there
	}{
		// WorkerCronTrigger is the one attachment whose field admits cron expressions
		{"cron-read-only.json", []string{"cron-grammar-enforced"}},
		// WorkerVersion is the one Form with binding relations
		{"versions-read-only.json", []string{"binding-target-missing-404-before-mutation", "binding-contract-verified"}},
	} {
		t.Run(h.profile, func(t *testing.T) {
			checks := narrowedTo(t, h.checks...)
			ctx, sim, cat := startSim(t, bin, testProfile(t, h.profile))
			got := runChecks(t, ctx, sim.URL, cat, checks)
			for _, id := range checks {
				if r := got[id]; r.Status != conformance.StatusNotApplicable {
					t.Errorf("%s on a host that will not create the Form it needs: %s, want not-applicable", id, r.Line())
				}
			}
		})
	}
}
