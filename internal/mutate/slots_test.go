package mutate

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestSlotsBoundTheRunAndLetOneRunAlone: however many rows ask, no more than the
// pool's slots hold a test process at once, and one taken alone runs with none
// beside it.
func TestSlotsBoundTheRunAndLetOneRunAlone(t *testing.T) {
	s := NewSlots(3)
	ctx := t.Context()
	var running, most, besideAlone atomic.Int32
	done := make(chan struct{})
	for i := range 12 {
		go func() {
			alone := i == 5
			give := s.take(ctx, alone)
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			if alone && n != 1 {
				besideAlone.Store(n - 1)
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			give()
			done <- struct{}{}
		}()
	}
	for range 12 {
		<-done
	}
	if m := most.Load(); m > 3 || m < 2 {
		t.Errorf("at most %d test processes ran at once, want 2 or 3 of the 3 slots", m)
	}
	if n := besideAlone.Load(); n != 0 {
		t.Errorf("%d ran beside the one taken alone", n)
	}
	cctx, cancel := context.WithCancel(ctx)
	give := s.take(ctx, false)
	cancel()
	s.take(cctx, true)() // a done run takes what it can and gives it back
	give()
	var nilPool *Slots
	nilPool.take(ctx, true)() // no pool: each row's workers are the limit
}
