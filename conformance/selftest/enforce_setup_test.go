package selftest

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestSupportEnforcementErrsWhenItsSetupIsRefused: support-profile-enforced-at-apply
// makes what a withheld create or update needs (the create's dependencies, the
// resource to update) before it tries the withheld operation. When the host
// refuses that setup, the check has measured nothing and must not pass: only a
// Form it cannot build at all makes that part not-applicable. A proxy in front of
// hostsim answers the first apply of the kind that setup makes 503 (the check
// makes none of that kind before; a later one, for another Form's part, is
// served, so a check that let the refusal go would pass).
func TestSupportEnforcementErrsWhenItsSetupIsRefused(t *testing.T) {
	t.Parallel() // its own hostsim processes
	const check = "support-profile-enforced-at-apply"
	narrowedTo(t, check)
	bin := hostsimBinary(t)
	for _, h := range []struct {
		profile, refused string
	}{
		// WorkerVersion's create is withheld; its spec needs a ModuleWorker made
		{"versions-read-only.json", "ModuleWorker"},
		// AtLeastOnceQueue's update is withheld; the update needs a queue made
		// (the first Form the check visits)
		{"queues-without-update.json", "AtLeastOnceQueue"},
	} {
		t.Run(h.profile, func(t *testing.T) {
			ctx, sim, cat := startSim(t, bin, testProfile(t, h.profile))
			var refused atomic.Int32
			proxy := hostProxy(t, sim.URL)
			url := serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// the check's applies under FormRefs the host does not install
				// (named excl-…) come first, and are not setup
				setup := r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/"+h.refused+"/") && !strings.Contains(r.URL.Path, "/excl-")
				if setup && refused.Add(1) == 1 {
					http.Error(w, "refused by the test", http.StatusServiceUnavailable)
					return
				}
				proxy.ServeHTTP(w, r)
			}))
			r := runChecks(t, ctx, url, cat, []string{check})[check]
			if refused.Load() == 0 {
				t.Fatalf("no apply of %s was refused: %s", h.refused, r.Line())
			}
			if r.Status == conformance.StatusPass || r.Status == conformance.StatusNotApplicable || !strings.Contains(r.Message, h.refused) {
				t.Errorf("the first apply of %s refused: %s, want the check to end on that refusal", h.refused, r.Line())
			}
		})
	}
}
