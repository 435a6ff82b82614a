package fault

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/nearest"
)

// Spec is one armed fault as written in a profile or POSTed to /_sim/faults.
type Spec struct {
	Fault    string `json:"fault,required"`
	Kind     string `json:"kind,omitempty"`
	Resource string `json:"resource,omitempty"`
	// Route scopes the fault to one route of docs/protocol.md#routes (apply,
	// read, form-transition, ...): an output fault on the write's answer only.
	Route string `json:"route,omitempty"`
	Count int64  `json:"count,omitempty"`
	Value string `json:"value,omitempty"`
}

// Validate checks the fault against the table.
func (s Spec) Validate() error {
	d, ok := Lookup(s.Fault)
	if !ok {
		return unknown(s.Fault)
	}
	if s.Count < 0 {
		return fmt.Errorf("fault %s: count %d is negative; omit it to fire always or give a positive count", s.Fault, s.Count)
	}
	if s.Kind != "" && !wire.ValidKind(s.Kind) {
		return fmt.Errorf("fault %s: kind %q is not a Form kind such as AtLeastOnceQueue", s.Fault, s.Kind)
	}
	if s.Resource != "" && !wire.ValidResourceName(s.Resource) {
		return fmt.Errorf("fault %s: resource %q is not a resource name (^[a-z][a-z0-9-]{0,62}$)", s.Fault, s.Resource)
	}
	if s.Route != "" && !slices.Contains(RouteNames, s.Route) {
		return fmt.Errorf("fault %s: route %q is not a route of the lane; use one of %s (docs/protocol.md#routes)", s.Fault, s.Route, strings.Join(RouteNames, ", "))
	}
	switch {
	case d.Value == nil && s.Value != "":
		return fmt.Errorf("fault %s takes no value (got %q)", s.Fault, s.Value)
	case d.ValueRequired && s.Value == "":
		return fmt.Errorf("fault %s needs a value, which it uses so: %s (%s=VALUE, or \"value\" in a fault object; docs/protocol.md#faults)", s.Fault, d.Effect, s.Fault)
	case d.Value != nil && s.Value != "":
		if err := d.Value(s.Value); err != nil {
			return fmt.Errorf("fault %s: %v", s.Fault, err)
		}
	}
	return nil
}

// unknown says why name is no fault and what to write instead: a fault object
// holding the text form gets the object that form stands for; another name
// gets the faults of its group (the part before the first dot), or the groups.
func unknown(name string) error {
	if strings.ContainsAny(name, "=,") {
		t, err := ParseText(name)
		if err != nil {
			return fmt.Errorf("fault %q is the text form, and as such: %v", name, err)
		}
		return fmt.Errorf("fault %q is the text form, which a fault object does not take: write %s", name, t.JSON())
	}
	group, _, _ := strings.Cut(name, ".")
	var all, same, groups []string
	for _, r := range Table {
		all = append(all, r.Name)
		g, _, _ := strings.Cut(r.Name, ".")
		if g == group {
			same = append(same, r.Name)
		}
		if !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	if len(same) > 0 {
		return fmt.Errorf("fault %q is unknown%s; the faults of %s are %s (every fault: docs/protocol.md#faults)", name, nearest.Suggest(name, all), group, strings.Join(same, ", "))
	}
	slices.Sort(groups)
	return fmt.Errorf("fault %q is unknown%s, and so is its group %q; the groups are %s (every fault: docs/protocol.md#faults)", name, nearest.Suggest(name, all), group, strings.Join(groups, ", "))
}

// ParseJSON decodes and validates one fault object strictly.
func ParseJSON(data []byte) (Spec, error) {
	var s Spec
	if err := wire.DecodeStrict(data, &s); err != nil {
		return Spec{}, fmt.Errorf("the fault object is malformed: %v", err)
	}
	return s, s.Validate()
}

// ParseText reads the text form name[=value][,kind=K][,resource=N][,route=R][,count=N].
func ParseText(text string) (Spec, error) {
	parts := strings.Split(text, ",")
	var s Spec
	s.Fault, s.Value, _ = strings.Cut(parts[0], "=")
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return Spec{}, fmt.Errorf("fault %q: %q is not key=value (keys: kind, resource, route, count)", text, p)
		}
		switch k {
		case "kind":
			s.Kind = v
		case "resource":
			s.Resource = v
		case "route":
			s.Route = v
		case "count":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				return Spec{}, fmt.Errorf("fault %q: count %q is not a positive integer", text, v)
			}
			s.Count = n
		default:
			return Spec{}, fmt.Errorf("fault %q: unknown key %q (keys: kind, resource, route, count)", text, k)
		}
	}
	return s, s.Validate()
}

// Text renders the text form of s.
func (s Spec) Text() string {
	out := s.Fault
	if s.Value != "" {
		out += "=" + s.Value
	}
	if s.Kind != "" {
		out += ",kind=" + s.Kind
	}
	if s.Resource != "" {
		out += ",resource=" + s.Resource
	}
	if s.Route != "" {
		out += ",route=" + s.Route
	}
	if s.Count > 0 {
		out += ",count=" + strconv.FormatInt(s.Count, 10)
	}
	return out
}

// Matches reports whether s is scoped to (kind, name) on route; empty scope matches all.
func (s Spec) Matches(kind, name, route string) bool {
	return (s.Kind == "" || s.Kind == kind) && (s.Resource == "" || s.Resource == name) && (s.Route == "" || s.Route == route)
}

// RouteNames are the lane's route names a fault may be scoped to
// (docs/protocol.md#routes); a lane test holds them equal to its route table.
var RouteNames = []string{"discovery", "forms", "form-definition", "validate", "prepare", "apply", "read", "import",
	"observe", "delete", "form-transition", "form-transition-readback", "operation", "operation-cancel",
	"artifact-upload-start", "artifact-blob-upload", "artifact-commit", "artifact-manifest-read", "artifact-blob-head",
	"artifact-upload-abandon", "support-forms", "support-form", "support-interface", "support-binding"}

// JSON renders the fault object.
func (s Spec) JSON() []byte {
	b, _ := json.Marshal(s)
	return b
}
