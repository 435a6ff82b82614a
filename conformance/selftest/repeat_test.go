package selftest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/conformance"
)

// TestEachCheckEndsAlikeRunThriceInOneRun runs every check three times in one
// run against hostsim full, as the lie sweeps do (a warm run, then one per
// lie), and wants the three to end alike. A check whose later runs end
// otherwise (a value it claims tenant-wide, made again the same, is taken by
// its earlier run) would end every lie told to it that way, whatever the lie:
// its recorded lies would prove nothing (the import checks' nativeIds did).
func TestEachCheckEndsAlikeRunThriceInOneRun(t *testing.T) {
	t.Parallel() // its own host
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", "full")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	var plan []alteration
	only := areaChecks(t)
	for _, c := range conformance.Table() {
		if only == nil || slices.Contains(only, c.ID) {
			plan = append(plan, alteration{id: c.ID}, alteration{id: c.ID}, alteration{id: c.ID})
		}
	}
	rs := sweepWith(ctx, t, sim.URL, cat, plan, &sweepTransport{lies: true})
	for i := 0; i+2 < len(rs); i += 3 {
		first := rs[i].res
		for _, again := range rs[i+1 : i+3] {
			if again.res.Status != first.Status {
				t.Errorf("%s ended %s, then %s when run again in the same run: %s", first.ID, first.Status, again.res.Status, again.res.Message)
				break
			}
		}
	}
}
