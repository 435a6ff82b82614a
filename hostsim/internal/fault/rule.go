// Package fault is hostsim's deliberate misbehaviour (docs/protocol.md#faults).
//
// Each fault is a declared value (a *Rule, see table.go), and the table that
// profiles and the admin API validate against is built from those values.
// Code asks for a fault with its value, never with a string: a point is one
// line at the step the fault breaks,
//
//	if fs.On(fault.FenceIgnore) {
//		return nil // the stale fence passes
//	}
//
// and asking is the one place a firing is counted (Set). A fault that a pure
// decision of package decide acts on is declared with its Decision; the
// decision is handed it as a plain value and asks a.On(decide.FenceIgnore)
// instead, and Set.Decide counts the firings (docs/protocol.md#faults). Arming, listing and
// counting firings go through the Armory; the faults table of the store is
// written by this package only.
package fault

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
)

// Stage is where in request handling a fault acts.
type Stage string

const (
	StageRequest  Stage = "request"  // before the route runs (latency, error)
	StageRender   Stage = "render"   // while a representation is rendered (outputs.*)
	StageMutation Stage = "mutation" // on apply, import and delete
	StageResponse Stage = "response" // after a mutation committed
	// StageRules switches off one rule of the lane (docs/protocol.md).
	StageRules Stage = "rules"
	// StageTransition acts on a Form transition (crash points, the backend).
	StageTransition Stage = "transition"
)

// Rule is one fault: its name on the wire and in profiles, where it acts,
// what it does, and how its value is checked.
type Rule struct {
	Name   string
	Stage  Stage
	Effect string
	// Value checks the fault's value; nil means the fault takes none.
	Value func(v string) error
	// ValueRequired is true when the fault means nothing without a value.
	ValueRequired bool
	// Decision is the fault as a pure decision knows it (decide.Fault), for
	// a fault only a decision of package decide acts on; 0 for a fault whose
	// points ask the Set. A decision fault is resolved for the request and
	// handed to the decision as a plain value (Set.Decide).
	Decision decide.Fault
}

func (r *Rule) String() string { return r.Name }

// Lookup returns the rule named name.
func Lookup(name string) (*Rule, bool) {
	for _, r := range Table {
		if r.Name == name {
			return r, true
		}
	}
	return nil, false
}

// CrashPoints are the labelled steps of a Form transition (docs/protocol.md#transitions).
const CrashPoints = "ABCDE"

func crashPoint(v string) error {
	if len(v) != 1 || !strings.Contains(CrashPoints, v) {
		return fmt.Errorf("value %q is not a crash point; use one of A, B, C, D, E (docs/protocol.md#transitions)", v)
	}
	return nil
}

// ProofMembers are the transitionProof members transition.proof-wrong can spoil.
var ProofMembers = []string{"observedSpecDigest", "uid", "generation", "nativeIdentityDigest", "transitionEvidenceDigest"}

func proofMember(v string) error {
	for _, m := range ProofMembers {
		if v == m {
			return nil
		}
	}
	return fmt.Errorf("value %q is not a transitionProof member; use one of %s", v, strings.Join(ProofMembers, ", "))
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

func statementIndex(v string) error {
	if n, err := strconv.Atoi(v); err != nil || n < 1 || strconv.Itoa(n) != v {
		return fmt.Errorf("value %q is not a statement number such as 1 or 3 (the request's n-th data statement fails)", v)
	}
	return nil
}

// anyName takes any value: it names a member, a kind or a feature, and a
// name no Form has makes the fault act on nothing. Validate never asks a
// check about an empty value (that is "no value", the fault's default).
func anyName(string) error { return nil }

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
