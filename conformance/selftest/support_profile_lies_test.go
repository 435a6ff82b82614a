package selftest

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestSupportProfilesPresentReadsEveryRefAndBinding: support-profiles-present
// holds an InterfaceSupport profile to its interfaceRef alone and a Form's
// supportedBindings to the binding routes that answer. A proxy in front of
// hostsim gives every InterfaceSupport profile the formRef of a FormSupport one,
// and then, on its own, lists an unimplemented binding in every Form's
// supportedBindings (in the listing and in each profile alike); the check must
// fail naming each.
func TestSupportProfilesPresentReadsEveryRefAndBinding(t *testing.T) {
	t.Parallel() // its own hostsim process
	const check = "support-profiles-present"
	narrowedTo(t, check)
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, "full")

	var (
		mu      sync.Mutex
		formRef any // a FormSupport profile's formRef, as the host wrote it
		given   int
	)
	withFormRef := rewriteJSON(t, sim.URL, func(_ *http.Request, doc map[string]any) bool {
		mu.Lock()
		defer mu.Unlock()
		switch doc["kind"] {
		case "FormSupport":
			if formRef == nil {
				formRef = doc["formRef"]
			}
		case "InterfaceSupport":
			if formRef != nil {
				doc["formRef"] = formRef
				given++
				return true
			}
		}
		return false
	})
	r := runChecks(t, ctx, withFormRef, cat, []string{check})[check]
	mu.Lock()
	if given == 0 {
		t.Fatalf("no InterfaceSupport profile was given a formRef: %s", r.Line())
	}
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, "interfaceRef must be exactly") {
		t.Errorf("every InterfaceSupport profile carrying a formRef: %s, want a failure naming the interfaceRef rule", r.Line())
	}
	mu.Unlock()

	const unimplemented = "takokit-unimplemented@0.1.0"
	var listed sync.Map
	withBinding := rewriteJSON(t, sim.URL, func(req *http.Request, doc map[string]any) bool {
		return addBinding(doc, unimplemented, func() { listed.Store(req.URL.Path, true) })
	})
	r = runChecks(t, ctx, withBinding, cat, []string{check})[check]
	n := 0
	listed.Range(func(any, any) bool { n++; return true })
	if n == 0 {
		t.Fatalf("no answer listed supportedBindings to add %s to: %s", unimplemented, r.Line())
	}
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, `supportedBindings "`+unimplemented+`", but its binding route does not answer`) {
		t.Errorf("every Form listing the unimplemented binding %s: %s, want a failure naming it", unimplemented, r.Line())
	}
}

// addBinding appends b to every non-empty supportedBindings array in v (an
// answer's JSON, walked whole), calling added for each; it reports whether it
// added any.
func addBinding(v any, b string, added func()) bool {
	changed := false
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if list, ok := e.([]any); ok && k == "supportedBindings" && len(list) > 0 {
				v[k] = append(list, b)
				added()
				changed = true
				continue
			}
			changed = addBinding(e, b, added) || changed
		}
	case []any:
		for _, e := range v {
			changed = addBinding(e, b, added) || changed
		}
	}
	return changed
}
