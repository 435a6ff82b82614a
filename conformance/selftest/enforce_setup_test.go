package selftest

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"slices"
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
	if only := areaChecks(t); only != nil && !slices.Contains(only, check) {
		t.Skipf("narrowed away: %s is not among the checks named", check)
	}
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
			profile, err := filepath.Abs(filepath.Join("testdata", h.profile))
			if err != nil {
				t.Fatal(err)
			}
			ctx, sim, cat := startSim(t, bin, profile)
			u, err := url.Parse(sim.URL)
			if err != nil {
				t.Fatal(err)
			}
			var refused atomic.Int32
			proxy := httputil.NewSingleHostReverseProxy(u)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				// the check's applies under FormRefs the host does not install
				// (named excl-…) come first, and are not setup
				setup := r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/"+h.refused+"/") && !strings.Contains(r.URL.Path, "/excl-")
				if setup && refused.Add(1) == 1 {
					http.Error(w, "refused by the test", http.StatusServiceUnavailable)
					return
				}
				proxy.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			r := runChecks(t, ctx, srv.URL, cat, []string{check})[check]
			if refused.Load() == 0 {
				t.Fatalf("no apply of %s was refused: %s", h.refused, r.Line())
			}
			if r.Status == conformance.StatusPass || r.Status == conformance.StatusNotApplicable || !strings.Contains(r.Message, h.refused) {
				t.Errorf("the first apply of %s refused: %s, want the check to end on that refusal", h.refused, r.Line())
			}
		})
	}
}
