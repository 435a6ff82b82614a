package conformance

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// Every call runs and is waited for; each error lands at its index; a panic in one
// call is that call's error, naming the runner bug and where, and the others' results
// stand.
func TestInParallelRunsEachAndTurnsAPanicIntoItsError(t *testing.T) {
	var ran atomic.Int32
	boom := errors.New("boom")
	errs := inParallel(5, func(i int) error {
		ran.Add(1)
		switch i {
		case 1:
			return boom
		case 3:
			var m map[string]int
			m["x"] = 1 // a runner bug: a nil map written
		}
		return nil
	})
	if ran.Load() != 5 || len(errs) != 5 {
		t.Fatalf("ran %d calls, %d errors; want 5 and 5", ran.Load(), len(errs))
	}
	for i, err := range errs {
		switch i {
		case 1:
			if err != boom {
				t.Errorf("call 1: %v; want its own error", err)
			}
		case 3:
			if err == nil || !strings.Contains(err.Error(), "runner bug in a concurrent request: assignment to entry in nil map") ||
				!strings.Contains(err.Error(), "parallel_test.go:") {
				t.Errorf("call 3 panicked: %v; want the runner bug named with its place", err)
			}
		default:
			if err != nil {
				t.Errorf("call %d: %v", i, err)
			}
		}
	}
}
