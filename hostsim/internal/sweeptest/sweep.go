// Package sweeptest holds what hostsim's fault sweeps share: a sweep that
// stops at its first failing case under -test.failfast (docs/mutation.md#killers-first).
package sweeptest

import (
	"flag"
	"sync/atomic"
	"testing"
)

// Sweep is one fault sweep's cases. Under -test.failfast, which the mutation
// runner passes, a case that failed stops the others at their next step: the
// test has failed already, and the rest of a sweep is most of its cost.
// hostsim's TestStoreFaultsLeaveEveryChangeWhole takes 11 s unmutated; a
// lifecycle mutant whose first failing case failed in a second kept it running
// 27-37 s. Without the flag every case runs to its end, so a change that breaks
// several cases shows them all. The zero value is ready.
type Sweep struct{ failed atomic.Bool }

// Watch marks the sweep failed when t, one of its cases, fails.
func (s *Sweep) Watch(t *testing.T) {
	t.Cleanup(func() {
		if t.Failed() {
			s.failed.Store(true)
		}
	})
}

// Check skips t when -test.failfast is set and another case of the sweep failed.
func (s *Sweep) Check(t *testing.T) {
	if s.failed.Load() && FailFast() {
		t.Skip("-test.failfast: another case of this sweep failed already")
	}
}

// FailFast is whether the test binary runs with -test.failfast.
func FailFast() bool {
	f := flag.Lookup("test.failfast")
	return f != nil && f.Value.String() == "true"
}
