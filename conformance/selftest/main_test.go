package selftest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/testlog"
)

// childEnv makes this test binary, run again, start a host and wait to be
// killed (TestMain).
const childEnv = "TAKOKIT_SELFTEST_KILLED_CHILD"

// TestMain lets this package's test binary, run again with childEnv naming
// bin/hostsim, act as the process TestAHostDiesWithTheProcessThatStartedIt
// kills: it starts a host, prints where, and waits.
func TestMain(m *testing.M) {
	if bin := os.Getenv(childEnv); bin != "" {
		sim, err := Start(context.Background(), bin, "full")
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Printf("host %s %d %s\n", strings.TrimPrefix(sim.URL, "http://"), sim.cmd.Process.Pid, sim.dir)
		time.Sleep(time.Minute)
		os.Exit(1)
	}
	// the package's tests run in parallel: their input list is rewritten in one order,
	// so an edit undone finds the results kept before it (docs/decisions.md#test-cache)
	os.Exit(testlog.Main(m))
}
