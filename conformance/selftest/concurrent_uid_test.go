package selftest

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestConcurrentCreatesAnsweredOneUidFail: concurrent-unrelated-mutation creates
// eight resources at once and each must get a uid of its own. A proxy in front of
// hostsim answers every create with the uid the first one got; the check must
// fail naming the repeated uid. With every create answered without its
// metadata it must end on the first create of its eight. (The lies cannot tell this: which create's answer
// comes first is the scheduler's choice, docs/guides/conformance.md#lying-answers.)
func TestConcurrentCreatesAnsweredOneUidFail(t *testing.T) {
	t.Parallel() // its own hostsim process
	const check = "concurrent-unrelated-mutation"
	narrowedTo(t, check)
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, "full")
	var (
		mu    sync.Mutex
		first string
		given int
	)
	url := rewriteJSON(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
		md, ok := doc["metadata"].(map[string]any)
		if req.Method != http.MethodPut || !ok || doc["kind"] == nil {
			return false
		}
		uid, ok := md["uid"].(string)
		if !ok {
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		if first == "" {
			first = uid
			return false
		}
		md["uid"] = first
		given++
		return true
	})
	r := runChecks(t, ctx, url, cat, []string{check})[check]
	mu.Lock()
	if given == 0 {
		t.Fatalf("the proxy repeated no uid (no create answered after the first): %s", r.Line())
	}
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, "two concurrent creates got the same uid") || !strings.Contains(r.Message, first) {
		t.Errorf("every create answered with uid %q: %s, want a failure naming two concurrent creates with the same uid", first, r.Line())
	}
	mu.Unlock()

	// every create answered without its metadata: the check reports the first
	// create in its own order, whichever the host answered first
	broken := rewriteJSON(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
		if req.Method != http.MethodPut || doc["kind"] == nil || doc["metadata"] == nil {
			return false
		}
		delete(doc, "metadata")
		return true
	})
	r = runChecks(t, ctx, broken, cat, []string{check})[check]
	if r.Status == conformance.StatusPass || !strings.HasPrefix(r.Message, "concurrent create 1 of 8: ") {
		t.Errorf("every create answered without metadata: %s, want it to end on \"concurrent create 1 of 8: …\"", r.Line())
	}
}
