package hostsim_test

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/fault"
)

// TestMain proves, after a full run of this package's tests (no -run
// filter), that every fault of the table fired at least once: each declared
// point is reachable from a lane test, and a fault whose point was lost (or
// never placed) fails the run by name.
func TestMain(m *testing.M) {
	code := m.Run()
	if f := flag.Lookup("test.run"); code == 0 && f != nil && f.Value.String() == "" {
		var never []string
		for name, n := range fault.Fires() {
			if n == 0 {
				never = append(never, name)
			}
		}
		sort.Strings(never)
		if len(never) > 0 {
			fmt.Printf("FAIL: these faults never fired in the lane tests (each needs a point that a test reaches): %v\n", never)
			code = 1
		}
	}
	os.Exit(code)
}
