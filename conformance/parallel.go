package conformance

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// inParallel runs fn(0), …, fn(n-1), each in a goroutine of its own, waits for all of
// them and returns their errors in order. A panic in one comes back as that call's
// error naming the runner bug, as runOne turns a check's own panic into one: runOne's
// recover cannot reach another goroutine, and a panic there would end the whole run
// with no report.
func inParallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil {
					errs[i] = fmt.Errorf("runner bug in a concurrent request: %v (at %s); please report it with this line", v, panicSite(debug.Stack()))
				}
			}()
			errs[i] = fn(i)
		})
	}
	wg.Wait()
	return errs
}
