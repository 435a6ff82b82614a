package render

import (
	"encoding/json"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// outputFaults are the render-stage faults on the computed outputs (nil for
// a Form that declares none); it returns what is served. A fault naming a
// member defaults to the first declared output and fires only where that
// member is served.
func outputFaults(f *catalog.Form, out map[string]any, fs *fault.Set) map[string]any {
	if out != nil && len(f.Outputs) > 0 {
		first := f.Outputs[0].Wire
		if m, ok := fs.Where(fault.OutputsOmit, present(out, first)); ok {
			delete(out, member(m, first))
		}
		if m, ok := fs.Where(fault.OutputsWrongType, present(out, first)); ok {
			out[member(m, first)] = otherType(out[member(m, first)])
		}
	}
	if m, ok := fs.Value(fault.OutputsExtra); ok {
		if out == nil {
			out = map[string]any{}
		}
		out[member(m, "unexpected")] = "injected by hostsim fault outputs.extra"
	}
	if !f.HasOutputs() {
		if fs.On(fault.OutputsEmptyWhenUndeclared) {
			out = map[string]any{}
		}
	}
	return out
}

// present matches a fault value naming a member out holds (default: first).
func present(out map[string]any, first string) func(string) bool {
	return func(v string) bool {
		_, ok := out[member(v, first)]
		return ok
	}
}

func member(v, fallback string) string {
	if v == "" {
		return fallback
	}
	return v
}

// otherType returns v as another JSON type.
func otherType(v any) any {
	switch t := v.(type) {
	case string:
		return 1
	case bool:
		return "true"
	case float64, int64:
		b, _ := json.Marshal(t)
		return string(b)
	}
	return true
}
