package mutate

import (
	"context"
	"sync"
)

// Slots is the run's worker pool when rows run side by side
// (docs/mutation.md#rows-side-by-side): a test process of any row takes one slot
// while it runs, so the machine runs Workers of them at once whichever rows they
// belong to, and a row's last slow mutants no longer leave the other workers
// idle until the next row's baseline is measured. A re-run that must be alone
// (a timeout) takes every slot.
type Slots struct {
	free  chan struct{}
	alone sync.Mutex // held by the one taking every slot, so two such never split them
}

// NewSlots is a pool of n slots.
func NewSlots(n int) *Slots {
	s := &Slots{free: make(chan struct{}, max(1, n))}
	for range cap(s.free) {
		s.free <- struct{}{}
	}
	return s
}

// take takes one slot (every one when alone) and returns what gives it back;
// with ctx done it takes none. A nil pool takes nothing: each row's own workers
// are the limit.
func (s *Slots) take(ctx context.Context, alone bool) func() {
	if s == nil {
		return func() {}
	}
	n := 1
	if alone {
		s.alone.Lock()
		n = cap(s.free)
	}
	got := 0
	for got < n {
		select {
		case <-s.free:
			got++
		case <-ctx.Done():
			n = got
		}
	}
	return func() {
		for range got {
			s.free <- struct{}{}
		}
		if alone {
			s.alone.Unlock()
		}
	}
}
