package fault

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// A decision is handed the decision faults armed for its request as plain
// values; only what it acted on fires, once per act, and a count is spent
// across decisions.
func TestDecideHandsTheArmedFaultsAndCountsWhatActed(t *testing.T) {
	var none *decide.Acts
	Fixed().Decide(func(a *decide.Acts) { none = a })
	if none != nil {
		t.Fatal("with nothing armed a decision got Acts")
	}
	Fixed(Spec{Fault: OutputsOmit.Name}).Decide(func(a *decide.Acts) { none = a })
	if none != nil {
		t.Fatal("a fault that is not a decision's armed Acts")
	}

	s := Fixed(Spec{Fault: FenceIgnore.Name, Count: 2}, Spec{Fault: IfMatchIgnore.Name})
	s.Decide(func(a *decide.Acts) {
		if a.Left(decide.FenceIgnore) != 2 || a.Left(decide.IfMatchIgnore) >= 0 || a.Left(decide.CreateOverwrite) != 0 {
			t.Fatalf("resolved %d, %d, %d firings left; want 2, always, none", a.Left(decide.FenceIgnore),
				a.Left(decide.IfMatchIgnore), a.Left(decide.CreateOverwrite))
		}
		// asked but not acted on: IfMatchIgnore is armed, the decision did not need it
	})
	if s.Pending() {
		t.Fatalf("a decision that acted on nothing fired %v", s.Firings())
	}
	s.Decide(func(a *decide.Acts) {
		if !a.On(decide.FenceIgnore) || !a.On(decide.FenceIgnore) || a.On(decide.FenceIgnore) {
			t.Fatal("a count=2 fault did not act exactly twice in one decision")
		}
	})
	if got := fmt.Sprint(s.Firings()); got != "[fence.ignore fence.ignore]" {
		t.Fatalf("firings %s; want two of fence.ignore", got)
	}
	s.Decide(func(a *decide.Acts) {
		if a.On(decide.FenceIgnore) {
			t.Fatal("a spent count acted again in a later decision")
		}
	})
}

func TestDecideKeepsTheRequestsScope(t *testing.T) {
	s := Fixed(Spec{Fault: FenceIgnore.Name, Resource: "orders"}, Spec{Fault: CreateOverwrite.Name, Kind: "Queue", Count: 1},
		Spec{Fault: CreateOverwrite.Name, Count: 2})
	s.Decide(func(a *decide.Acts) {
		if a.On(decide.FenceIgnore) {
			t.Fatal("a fault scoped to another resource acted")
		}
		if a.Left(decide.CreateOverwrite) != 2 {
			t.Fatalf("the unscoped instance alone: %d left, want 2", a.Left(decide.CreateOverwrite))
		}
	})
	s.Scope("Queue", "orders")
	s.Decide(func(a *decide.Acts) {
		if a.Left(decide.CreateOverwrite) != 3 || !a.On(decide.FenceIgnore) {
			t.Fatalf("in scope: %d firings of create.overwrite left (want both instances, 3), fence.ignore armed %v",
				a.Left(decide.CreateOverwrite), a.Left(decide.FenceIgnore))
		}
	})
}

// Concurrent decisions of requests of one armory never spend a count twice.
func TestConcurrentDecisionsSpendACountOnce(t *testing.T) {
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	armory, err := NewArmory(context.Background(), st, []Spec{{Fault: FenceIgnore.Name, Count: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var acted, fired atomic.Int64
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := armory.Request(fmt.Sprint(i), "", "")
			s.Decide(func(a *decide.Acts) {
				if a.On(decide.FenceIgnore) {
					acted.Add(1)
				}
			})
			fired.Add(int64(len(s.Firings())))
		}()
	}
	wg.Wait()
	if acted.Load() != 3 || fired.Load() != 3 {
		t.Fatalf("a count of 3: decisions acted %d times and %d firings were counted", acted.Load(), fired.Load())
	}
}
