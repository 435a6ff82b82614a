package selftest

import (
	"net/http"
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
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	for _, c := range []struct {
		name     string
		handlers []any
		want     string
	}{
		{"empty", []any{}, "supportedEnums.handlers is empty"},
		{"outside the vocabulary", []any{"fetch", "alarm"}, `supportedEnums.handlers lists "alarm"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			brokenAnswer(t, bin, "module-worker-runtime-contract-advertised", "full", conformance.StatusFail, c.want,
				func(_ *http.Request, doc map[string]any) bool {
					return stateHandlers(doc, "WorkerVersion", c.handlers) > 0
				})
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
