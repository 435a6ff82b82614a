package hostview

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/profile"
)

// Refusals says, one clause each, what the profile in force refuses that the
// full profile carries: Forms, interfaces and bindings left out, no endpoint
// assignment (naming the kinds of this catalog it leaves out), narrowed enums,
// ranges and limits, a degraded support surface. An empty list means the
// whole catalog (Installed says how much that is).
func (s *Source) Refusals() ([]string, error) {
	full, err := profile.Load("full")
	if err != nil {
		return nil, err
	}
	out := Refusals(s.Host.P, full)
	for i, st := range out {
		if st == noEndpoints {
			out[i] = s.noEndpoints()
		}
	}
	return out, nil
}

// noEndpoints is the statement of endpoints.assign false, before Source names
// the kinds it leaves out of the catalog in force.
const noEndpoints = "no endpoint assignment (Forms with host-assigned outputs not installed)"

func (s *Source) noEndpoints() string {
	var kinds []string
	for _, f := range s.Host.Cat.Forms() {
		if f.HasOutputs() && !slices.Contains(kinds, f.Ref.Kind) {
			kinds = append(kinds, f.Ref.Kind)
		}
	}
	if len(kinds) == 0 {
		return "no endpoint assignment (no Form of the catalog has host-assigned outputs)"
	}
	return "no endpoint assignment (" + strings.Join(kinds, ", ") + " not installed: host-assigned outputs)"
}

// Installed counts what the host installs against what its catalog holds.
type Installed struct {
	Forms, Kinds, CatalogForms int
	// Whole: every Form, interface and binding of the catalog is installed.
	Whole bool
}

// Installed counts the Forms and kinds the host installs.
func (s *Source) Installed() Installed {
	forms := s.Host.Forms()
	kinds := map[[2]string]bool{}
	for _, f := range forms {
		kinds[[2]string{f.Ref.APIVersion, f.Ref.Kind}] = true
	}
	cat := s.Host.Cat
	return Installed{Forms: len(forms), Kinds: len(kinds), CatalogForms: len(cat.Forms()),
		Whole: len(forms) == len(cat.Forms()) && len(s.Host.Interfaces()) == len(cat.Interfaces()) && len(s.Host.Bindings()) == len(cat.Bindings())}
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
			if in, ok := m["include"].([]any); ok {
				list := joinAny(in)
				if list == "" {
					list = "none"
				}
				out = append(out, group+" included only: "+list)
			}
			if ex, ok := m["exclude"].([]any); ok && len(ex) > 0 {
				out = append(out, group+" excluded: "+joinAny(ex))
			}
		}
	}
	if ep, ok := doc["endpoints"].(map[string]any); ok && ep["assign"] == false {
		out = append(out, noEndpoints)
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
