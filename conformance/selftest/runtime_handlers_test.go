package selftest

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestRuntimeContractCheckHoldsTheHandlerEnumToTheVocabulary:
// module-worker-runtime-contract-advertised holds WorkerVersion's stated
// supportedEnums.handlers to the runtime contract's vocabulary: stated, it is
// neither empty nor wider. A proxy in front of hostsim states it empty, then with
// a handler the vocabulary does not define, in every FormSupport profile of
// WorkerVersion it passes (the listing's and the Form's own); the check must fail
// naming each.
func TestRuntimeContractCheckHoldsTheHandlerEnumToTheVocabulary(t *testing.T) {
	t.Parallel() // its own hostsim process
	const check = "module-worker-runtime-contract-advertised"
	narrowedTo(t, check)
	ctx, sim, cat := startSim(t, hostsimBinary(t), "full")
	for _, c := range []struct {
		name     string
		handlers []any
		want     string
	}{
		{"empty", []any{}, "supportedEnums.handlers is empty"},
		{"outside the vocabulary", []any{"fetch", "alarm"}, `supportedEnums.handlers lists "alarm"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stated atomic.Int32
			proxy := rewriteJSON(t, sim.URL, func(_ *http.Request, doc map[string]any) bool {
				n := stateHandlers(doc, "WorkerVersion", c.handlers)
				stated.Add(int32(n))
				return n > 0
			})
			r := runChecks(t, ctx, proxy, cat, []string{check})[check]
			if stated.Load() == 0 {
				t.Fatalf("no FormSupport profile of WorkerVersion stated handlers to rewrite: %s", r.Line())
			}
			if r.Status != conformance.StatusFail || !strings.Contains(r.Message, c.want) {
				t.Errorf("WorkerVersion's handlers stated %v: %s, want a failure naming %q", c.handlers, r.Line(), c.want)
			}
		})
	}
}

// stateHandlers sets supportedEnums.handlers to handlers in every FormSupport
// profile of kind in v (an answer's JSON, walked whole) that states it, and
// returns how many it set.
func stateHandlers(v any, kind string, handlers []any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		ref, _ := v["formRef"].(map[string]any)
		enums, _ := v["supportedEnums"].(map[string]any)
		if _, ok := enums["handlers"]; ok && v["kind"] == "FormSupport" && ref["kind"] == kind {
			enums["handlers"] = handlers
			n++
		}
		for _, m := range v {
			n += stateHandlers(m, kind, handlers)
		}
	case []any:
		for _, e := range v {
			n += stateHandlers(e, kind, handlers)
		}
	}
	return n
}
