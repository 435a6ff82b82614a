package state

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/profile"
)

// Refusals says, one clause each, what the profile in force refuses that the
// full profile carries: excluded Forms, interfaces and bindings, no endpoint
// assignment, narrowed enums, ranges and limits, a degraded support surface.
// An empty list means the whole catalog.
func (s *Source) Refusals() ([]string, error) {
	full, err := profile.Load("full")
	if err != nil {
		return nil, err
	}
	return Refusals(s.Host.P, full), nil
}

// Refusals compares two merged profiles: the statements of p that full does not make.
func Refusals(p, full *profile.Profile) []string {
	base := map[string]bool{}
	for _, st := range statements(full.Doc) {
		base[st] = true
	}
	var out []string
	for _, st := range statements(p.Doc) {
		if !base[st] {
			out = append(out, st)
		}
	}
	return out
}

// statements lists what one merged profile document states, one readable clause each.
func statements(doc map[string]any) []string {
	var out []string
	for _, group := range []string{"forms", "interfaces", "bindings"} {
		if m, ok := doc[group].(map[string]any); ok {
			if ex, ok := m["exclude"].([]any); ok && len(ex) > 0 {
				out = append(out, group+" excluded: "+joinAny(ex))
			}
		}
	}
	if ep, ok := doc["endpoints"].(map[string]any); ok && ep["assign"] == false {
		out = append(out, "no endpoint assignment (WorkerEndpoint not installed)")
	}
	if ops, ok := doc["operations"].(map[string]any); ok {
		out = append(out, flatten("operations", ops)...)
	}
	for _, key := range []string{"supportedEnums", "supportedRanges", "limits"} {
		if m, ok := doc[key].(map[string]any); ok {
			out = append(out, flatten(key, m)...)
		}
	}
	if s, ok := doc["support"].(string); ok && s != "served" {
		out = append(out, "support surface: "+s)
	}
	return out
}

func flatten(prefix string, m map[string]any) []string {
	var out []string
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			out = append(out, flatten(prefix+"."+k, sub)...)
			continue
		}
		b, _ := json.Marshal(v)
		out = append(out, fmt.Sprintf("%s.%s=%s", prefix, k, b))
	}
	sort.Strings(out)
	return out
}

func joinAny(xs []any) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}
