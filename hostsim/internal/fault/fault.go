// Package fault is hostsim's table of deliberate misbehaviour (hostsim.md §6).
// Each fault is data: a name, where it acts, and how its value is checked.
package fault

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// Stage is where in request handling a fault acts.
type Stage string

const (
	StageRequest  Stage = "request"  // before the route runs (latency, error)
	StageRender   Stage = "render"   // while a representation is rendered (outputs.*)
	StageMutation Stage = "mutation" // on apply, import and delete
	StageResponse Stage = "response" // after a mutation committed
	// StageRules switches off one rule of host-api.md §14–§17.
	StageRules Stage = "rules"
	// StageTransition is where the transition faults act (added with transitions).
	StageTransition Stage = "transition"
)

// Def describes one fault of the table.
type Def struct {
	Name   string
	Stage  Stage
	Effect string
	// Value checks the fault's value; nil means the fault takes none.
	Value func(v string) error
	// ValueRequired is true when the fault means nothing without a value.
	ValueRequired bool
}

// Table lists every fault hostsim knows: the core faults in the order of
// hostsim.md §6, then the lane rule faults of targeted.go.
var Table = append(append([]Def{}, coreTable...), targetedTable...)

var coreTable = []Def{
	{Name: "outputs.omit", Stage: StageRender, Effect: "status.outputs lacks one declared member (value names it; default: the first declared)", Value: anyName},
	{Name: "outputs.wrong-type", Stage: StageRender, Effect: "one declared output is served with another JSON type (value names it; default: the first declared)", Value: anyName},
	{Name: "outputs.extra", Stage: StageRender, Effect: "status.outputs carries an undeclared member (value names it; default \"unexpected\")", Value: anyName},
	{Name: "outputs.empty-when-undeclared", Stage: StageRender, Effect: "status.outputs: {} on a Form that declares no outputs"},
	{Name: "apply.accept-unfinished", Stage: StageMutation, Effect: "a mutation answers 202 and its operation stays running"},
	{Name: "response.drop-after-commit", Stage: StageResponse, Effect: "the mutation commits, then the connection is dropped without an answer"},
	{Name: "latency", Stage: StageRequest, Effect: "adds value (a duration) to every matching request", Value: duration, ValueRequired: true},
	{Name: "auth.accept-any", Stage: StageRequest, Effect: "a request without a valid credential is served as the first configured principal"},
	{Name: "error", Stage: StageRequest, Effect: "answers value (an error code) with the code's status", Value: errorCode, ValueRequired: true},
	// Rules of host-api.md §14–§17 switched off, one per conformance negative.
	{Name: "relations.ignore-missing", Stage: StageRules, Effect: "store references whose target does not exist (resource_not_found is skipped, nothing is pinned)"},
	{Name: "relations.no-drift", Stage: StageRules, Effect: "render no drift for replaced or missing relation targets"},
	{Name: "relations.no-repin", Stage: StageRules, Effect: "keep the stored pins on an accepted apply or import instead of re-pinning"},
	{Name: "rendering.frozen", Stage: StageRules, Effect: "never re-render dependents after a mutation (no derived revision moves)"},
	{Name: "bindings.unchecked", Stage: StageRules, Effect: "skip the binding checks of host-api.md §14.3"},
	{Name: "aggregate.unchecked", Stage: StageRules, Effect: "skip the deployment rules, attachment gate, reverse gate, one-per-target claims, hostname claims and environment namespace"},
	{Name: "delete.skip-dependents", Stage: StageRules, Effect: "delete targets that other resources pin and deployments that serve dependents"},
	{Name: "endpoint.reassign", Stage: StageRules, Effect: "assign a new endpoint address on every apply (the address follows the generation)"},
	{Name: "artifacts.no-export-scan", Stage: StageRules, Effect: "accept any declared handler without scanning the bundle's main module"},
	{Name: "artifacts.list-none", Stage: StageRules, Effect: "answer upload start with missingBlobs []"},
	{Name: "artifacts.recommit", Stage: StageRules, Effect: "answer every commit 201, also for an upload already committed"},
	{Name: "artifacts.forget", Stage: StageRules, Effect: "drop committed manifests: manifest reads and bundle resolution answer artifact_missing"},
	// Form transitions (transitions.md §8), acted on by internal/transition.
	{Name: "transition.crash", Stage: StageTransition, Effect: "aborts a Form transition right after the durable write of point value (A-E); the client sees a dropped connection", Value: crashPoint, ValueRequired: true},
	{Name: "transition.exit", Stage: StageTransition, Effect: "the process exits right after the durable write of point value (A-E); needs --db FILE (without one it acts as transition.crash)", Value: crashPoint, ValueRequired: true},
	{Name: "transition.reject", Stage: StageTransition, Effect: "the backend definitively rejects matching Form transitions; failureCode = value (default backend_rejected)", Value: failureCode},
}

// CrashPoints are the labelled steps of a Form transition (transitions.md §5, §8).
const CrashPoints = "ABCDE"

func crashPoint(v string) error {
	if len(v) != 1 || !strings.Contains(CrashPoints, v) {
		return fmt.Errorf("value %q is not a crash point; use one of A, B, C, D, E (transitions.md §8)", v)
	}
	return nil
}

func failureCode(v string) error {
	ok := len(v) <= 64 && v[0] >= 'a' && v[0] <= 'z'
	for i := 0; ok && i < len(v); i++ {
		b := v[i]
		ok = b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_'
	}
	if !ok {
		return fmt.Errorf("value %q is not a failure code such as backend_rejected (^[a-z][a-z0-9_]{0,63}$)", v)
	}
	return nil
}

// Lookup returns the table entry for name.
func Lookup(name string) (*Def, bool) {
	for i := range Table {
		if Table[i].Name == name {
			return &Table[i], true
		}
	}
	return nil, false
}

func names() string {
	var out []string
	for _, d := range Table {
		out = append(out, d.Name)
	}
	return strings.Join(out, ", ")
}

func anyName(v string) error {
	if v == "" {
		return fmt.Errorf("the value names a member and cannot be empty")
	}
	return nil
}

func duration(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("value %q is not a duration such as 250ms or 2s", v)
	}
	return nil
}

func errorCode(v string) error {
	if !wire.Code(v).Known() {
		return fmt.Errorf("value %q is not one of the 26 error codes (for example resource_busy)", v)
	}
	return nil
}

// Spec is one armed fault as written in a profile or POSTed to /_sim/faults.
type Spec struct {
	Fault    string `json:"fault,required"`
	Kind     string `json:"kind,omitempty"`
	Resource string `json:"resource,omitempty"`
	Count    int64  `json:"count,omitempty"`
	Value    string `json:"value,omitempty"`
}

// Validate checks the fault against the table.
func (s Spec) Validate() error {
	d, ok := Lookup(s.Fault)
	if !ok {
		return fmt.Errorf("fault %q is unknown; known faults: %s", s.Fault, names())
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
	switch {
	case d.Value == nil && s.Value != "":
		return fmt.Errorf("fault %s takes no value (got %q)", s.Fault, s.Value)
	case d.ValueRequired && s.Value == "":
		return fmt.Errorf("fault %s needs a value", s.Fault)
	case d.Value != nil && s.Value != "":
		if err := d.Value(s.Value); err != nil {
			return fmt.Errorf("fault %s: %v", s.Fault, err)
		}
	}
	return nil
}

// ParseJSON decodes and validates one fault object strictly.
func ParseJSON(data []byte) (Spec, error) {
	var s Spec
	if err := wire.DecodeStrict(data, &s); err != nil {
		return Spec{}, fmt.Errorf("the fault object is malformed: %v", err)
	}
	return s, s.Validate()
}

// ParseText reads the text form name[=value][,kind=K][,resource=N][,count=N].
func ParseText(text string) (Spec, error) {
	parts := strings.Split(text, ",")
	var s Spec
	s.Fault, s.Value, _ = strings.Cut(parts[0], "=")
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return Spec{}, fmt.Errorf("fault %q: %q is not key=value (keys: kind, resource, count)", text, p)
		}
		switch k {
		case "kind":
			s.Kind = v
		case "resource":
			s.Resource = v
		case "count":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				return Spec{}, fmt.Errorf("fault %q: count %q is not a positive integer", text, v)
			}
			s.Count = n
		default:
			return Spec{}, fmt.Errorf("fault %q: unknown key %q (keys: kind, resource, count)", text, k)
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
	if s.Count > 0 {
		out += ",count=" + strconv.FormatInt(s.Count, 10)
	}
	return out
}

// Matches reports whether s is scoped to (kind, name); empty scope matches all.
func (s Spec) Matches(kind, name string) bool {
	return (s.Kind == "" || s.Kind == kind) && (s.Resource == "" || s.Resource == name)
}

// JSON renders the fault object.
func (s Spec) JSON() []byte {
	b, _ := json.Marshal(s)
	return b
}
