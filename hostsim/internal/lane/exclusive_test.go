package lane_test

import (
	"sort"
	"testing"
)

// mutation.exclusive refuses only a mutation that overlaps another: one
// after another both pass, an overlapping pair has exactly one refused, and
// the refused one leaves the host free for the next.
func TestMutationExclusiveOnlyRefusesOverlap(t *testing.T) {
	h := newHost(t, "")
	if err := h.sim.Admin.ArmFault("mutation.exclusive"); err != nil {
		t.Fatal(err)
	}
	h.create("ex-a")().want(201)
	h.create("ex-b")().want(201)
	c, d := h.create("ex-c"), h.create("ex-d")
	done := make(chan *reply)
	go func() { done <- d() }()
	got := []int{c().status, (<-done).status}
	sort.Ints(got)
	if got[0] != 201 || got[1] != 409 {
		t.Fatalf("an overlapping pair answered %v, want one 201 and one 409", got)
	}
	n, err := h.sim.Admin.Counters()
	if err != nil || n.Fired["mutation.exclusive"] != 1 {
		t.Fatalf("mutation.exclusive fired %v times (%v), want 1", n.Fired["mutation.exclusive"], err)
	}
	h.create("ex-e")().want(201)
}
