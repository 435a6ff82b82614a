package selftest

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestHandlerGatesNeedTwoHandlers: handler-gated-attachments applies each
// attachment under a version declaring one handler, then another, to see which
// one it gates on. On a host whose support profile narrows the handlers to one
// (testdata/one-handler.json) there is nothing to compare, and the check must
// say so: not-applicable, not a verdict on the one handler.
func TestHandlerGatesNeedTwoHandlers(t *testing.T) {
	t.Parallel() // its own hostsim process
	const check = "handler-gated-attachments"
	narrowedTo(t, check)
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, testProfile(t, "one-handler.json"))
	r := runChecks(t, ctx, sim.URL, cat, []string{check})[check]
	if r.Status != conformance.StatusNotApplicable || !strings.Contains(r.Message, "offers two handlers") {
		t.Errorf("%s with one handler offered: %s, want not-applicable saying no revision Form offers two handlers", check, r.Line())
	}
}
