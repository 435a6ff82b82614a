package selftest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestHostnameClaimCheckReadsTheOtherTenantsAnswer: the check that a hostname
// claim stops at the tenant creates a claim as the other tenant and goes on with
// the resource its answer names. When that answer is no resource (its metadata
// left out), the check must fail on it, naming the answer, not go on without the
// resource and break later (a runner bug). The recorded lies reach the same
// failure through the first tenant's claim first, so none is told to this one.
func TestHostnameClaimCheckReadsTheOtherTenantsAnswer(t *testing.T) {
	t.Parallel() // its own host
	const id = "custom-domain-hostname-claim-stops-at-the-tenant"
	narrowedTo(t, id)
	ctx, sim, cat := startInProcessSim(t, "full")
	// the other tenant's creates of a WorkerCustomDomain are answered with the
	// resource's metadata left out: a claim the host accepted whose answer is no
	// resource representation
	proxy, told := countedRewrite(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
		if req.Method != http.MethodPut || !strings.Contains(req.URL.Path, "/WorkerCustomDomain/") ||
			req.Header.Get("Authorization") != "Bearer "+TokenOtherTenant || doc["metadata"] == nil {
			return false
		}
		delete(doc, "metadata")
		return true
	})
	cfg := conformance.Config{Endpoint: proxy, Catalog: cat, Space: "unnamed-claim", Only: []string{id}}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if told.Load() == 0 {
		t.Fatal("the other tenant created no WorkerCustomDomain: the check no longer claims as the other tenant")
	}
	for _, r := range rep.Checks {
		if r.ID == id {
			if r.Status != conformance.StatusFail || strings.Contains(r.Message, "runner bug") || !strings.Contains(r.Message, "metadata") {
				t.Errorf("with the other tenant's claim answered without its metadata: %s\nwant a failure naming the answer's missing metadata", r.Line())
			}
			return
		}
	}
	t.Fatalf("%s did not run", id)
}
