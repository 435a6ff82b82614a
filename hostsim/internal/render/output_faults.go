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
		head := f.Outputs[0].Wire
		if m, ok := fs.Where(fault.OutputsOmit, present(out, head)); ok {
			delete(out, member(m, head))
		}
		if m, ok := fs.Where(fault.OutputsWrongType, present(out, head)); ok {
			out[member(m, head)] = otherType(out[member(m, head)])
		}
		if m, ok := fs.Where(fault.OutputsNullMember, present(out, head)); ok {
			out[member(m, head)] = nil
		}
		if m, ok := fs.Where(fault.OutputsPatternViolation, served(f, out, patterned)); ok {
			out[member(m, first(f, patterned))] = "NOT A VALUE OF ITS PATTERN (hostsim fault outputs.pattern-violation)"
		}
		if m, ok := fs.Where(fault.OutputsOutOfRange, served(f, out, bounded)); ok {
			out[member(m, first(f, bounded))] = pastBound(f, member(m, first(f, bounded)))
		}
		if fs.On(fault.OutputsDropAll) {
			out = nil
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

// dropStatus serves rep without status (fault outputs.drop-status) when f
// declares outputs: the representation then carries neither conditions nor outputs.
func dropStatus(f *catalog.Form, rep *Representation, fs *fault.Set) {
	if f.HasOutputs() {
		if fs.On(fault.OutputsDropStatus) {
			rep.noStatus = true
		}
	}
}

// patterned is a string output with a pattern (outputs.pattern-violation).
func patterned(o *catalog.Output) bool {
	return o.Type == "string" && o.Pattern != "" && len(o.Enum) == 0
}

// bounded is an integer output with a bound (outputs.out-of-range).
func bounded(o *catalog.Output) bool { return o.Type == "integer" && (o.Max != nil || o.Min != nil) }

// first is the first declared output of that sort ("" when none).
func first(f *catalog.Form, sort func(*catalog.Output) bool) string {
	for i := range f.Outputs {
		if sort(&f.Outputs[i]) {
			return f.Outputs[i].Wire
		}
	}
	return ""
}

// served matches a fault value naming a served output of that sort (default:
// the first declared one).
func served(f *catalog.Form, out map[string]any, sort func(*catalog.Output) bool) func(string) bool {
	return func(v string) bool {
		m := member(v, first(f, sort))
		o, ok := f.Output(m)
		_, held := out[m]
		return ok && held && sort(o)
	}
}

// pastBound is one past the declared maximum of the output named m, or one
// below its minimum when it declares no maximum.
func pastBound(f *catalog.Form, m string) any {
	o, _ := f.Output(m)
	if o.Max != nil {
		return *o.Max + 1
	}
	return *o.Min - 1
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
