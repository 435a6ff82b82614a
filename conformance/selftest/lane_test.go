package selftest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
)

// The runner learns the host's lane from discovery and probes it with the project's
// catalog of that lane; a catalog of another lane is refused naming both lanes
// (docs/protocol.md#lanes).
func TestRunnerLearnsTheHostsLane(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, lane := range wire.Lanes() {
		sim, err := Start(ctx, bin, "full", "--lane", lane.Name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sim.Stop)
		rep, err := conformance.Run(ctx, conformance.Config{Endpoint: sim.URL, Primary: "sim-primary",
			Only: []string{"discovery-exact", "apply-create-uid-minted"}})
		if err != nil {
			t.Fatalf("%s host: %v", lane.Name, err)
		}
		if rep.Lane != lane.APIVersion || rep.Summary.Passed != 2 {
			t.Errorf("%s host: lane %q, %+v", lane.Name, rep.Lane, rep.Summary)
		}
		for _, other := range wire.Lanes() {
			if other == lane {
				continue
			}
			cat, err := catalog.EmbeddedLane(other)
			if err != nil {
				t.Fatal(err)
			}
			_, err = conformance.Run(ctx, conformance.Config{Endpoint: sim.URL, Primary: "sim-primary", Catalog: cat, Only: []string{"discovery-exact"}})
			want := "speaks " + lane.Describe() + ", but the runner's catalog speaks " + other.Describe()
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("a %s catalog against a %s host: %v, want %q", other.Name, lane.Name, err, want)
			}
		}
	}
}
