package decide

import (
	"slices"

	"golang.org/x/net/idna"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/hostsim/internal/rules"
)

// canonicalize is the hostname materialization of the spec gate
// (rules.CanonicalizeSpec) with its faults: hostname.idna-map maps a U-label to
// its A-label first, hostname.as-sent leaves the value as sent. It reports
// whether a fault changed the outcome.
func canonicalize(f *catalog.Form, m map[string]any, a *Acts) (laxed bool) {
	for i := range f.Fields {
		fl := &f.Fields[i]
		s, ok := m[fl.Wire].(string)
		if !ok || rules.FieldSemantic(fl) != rules.SemanticHostname {
			continue
		}
		if !ascii(s) {
			if a.On(HostnameIDNAMap) {
				if a, err := idna.Lookup.ToASCII(s); err == nil {
					s, laxed = a, true
					m[fl.Wire] = s
				}
			}
		}
		if a.On(HostnameAsSent) {
			laxed = true
			continue
		}
		m[fl.Wire] = rules.CanonicalHostname(s)
	}
	return laxed
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// withinVocabulary returns a copy of m without the values of a revision Form's
// required closed string sets that their enum does not hold (the handler
// vocabulary), or nil when m holds none: what the spec gate validates under
// handlers.open-vocabulary.
func withinVocabulary(f *catalog.Form, m map[string]any) map[string]any {
	if f.Role != "revision" {
		return nil
	}
	var out map[string]any
	for _, fl := range f.Fields {
		list, ok := m[fl.Wire].([]any)
		if fl.Kind != catalog.FieldStringSet || len(fl.Enum) == 0 || !ok {
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(list), func(v any) bool { s, _ := v.(string); return !slices.Contains(fl.Enum, s) })
		if len(kept) == len(list) {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k, v := range m {
				out[k] = v
			}
		}
		out[fl.Wire] = kept
	}
	return out
}

// CronLax is the lax hook of rules.CheckSemanticFieldsLax for the fault
// cron.pattern-only; it sets *lax when the fault lets a cron field through.
func CronLax(a *Acts, lax *bool) func() bool {
	return func() bool {
		if a.On(CronPatternOnly) {
			*lax = true
			return true
		}
		return false
	}
}
