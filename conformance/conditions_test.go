package conformance

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// TestConditionProblem holds conditionProblem to the closed vocabularies and the
// bounds of docs/protocol.md#status, each rule broken alone and each bound met
// exactly (a bound met is no problem).
func TestConditionProblem(t *testing.T) {
	ready := Condition{Type: wire.ConditionReady, Status: wire.StatusTrue, Reason: wire.ReasonAvailable, LastTransitionTime: "2026-12-03T09:00:00Z"}
	with := func(edit func(c *Condition)) []Condition {
		c := ready
		edit(&c)
		return []Condition{c}
	}
	many := func(n int) []Condition {
		cs := make([]Condition, n)
		for i := range cs {
			cs[i] = ready
		}
		return cs
	}
	for _, tc := range []struct {
		name  string
		conds []Condition
		want  string // "" for no problem
	}{
		{"one Ready condition", many(1), ""},
		{"sixteen conditions", many(16), ""},
		{"seventeen conditions", many(17), "more than 16 conditions"},
		{"no condition", nil, "no Ready condition"},
		{"no Ready condition", with(func(c *Condition) { c.Type = wire.ConditionReconciling }), "no Ready condition"},
		{"Ready after another", append(with(func(c *Condition) { c.Type = wire.ConditionDrifted }), ready), ""},
		{"unknown type", with(func(c *Condition) { c.Type = "Happy" }), "condition type Happy is outside the closed vocabulary"},
		{"unknown status", with(func(c *Condition) { c.Status = "Maybe" }), "condition Ready status Maybe is not True, False or Unknown"},
		{"unknown reason", with(func(c *Condition) { c.Reason = "Because" }), "condition Ready reason Because is outside the closed vocabulary"},
		{"hostReason of 256", with(func(c *Condition) { c.HostReason = strings.Repeat("h", 256) }), ""},
		{"hostReason of 257", with(func(c *Condition) { c.HostReason = strings.Repeat("h", 257) }), "condition Ready hostReason or message is too long"},
		{"message of 4096", with(func(c *Condition) { c.Message = strings.Repeat("m", 4096) }), ""},
		{"message of 4097", with(func(c *Condition) { c.Message = strings.Repeat("m", 4097) }), "condition Ready hostReason or message is too long"},
		{"time not RFC 3339", with(func(c *Condition) { c.LastTransitionTime = "yesterday" }), "condition Ready lastTransitionTime yesterday is not RFC 3339"},
	} {
		var res Resource
		res.Status.Conditions = tc.conds
		if got := conditionProblem(&res); got != tc.want {
			t.Errorf("%s: conditionProblem = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// readyOf is the Ready condition wherever the host lists it, and a zero
// condition when it lists none.
func TestReadyOfFindsReadyWhereverItIsListed(t *testing.T) {
	var r Resource
	r.Status.Conditions = []Condition{{Type: "Progressing", Status: "True", Reason: "Applying"}, {Type: "Ready", Status: "False", Reason: "Failed"}}
	if c := readyOf(&r); c.Type != "Ready" || c.Status != "False" {
		t.Fatalf("readyOf took %+v, want the Ready condition listed second", c)
	}
	r.Status.Conditions = r.Status.Conditions[:1]
	if c := readyOf(&r); c != (Condition{}) {
		t.Fatalf("readyOf of a resource without Ready: %+v, want none", c)
	}
}
