package client

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// A client speaks its own lane's paths, and against a host of another lane it says
// which lane the host speaks instead of a bare 404 (docs/protocol.md#lanes).
func TestClientSpeaksItsLaneAndNamesTheHostsLane(t *testing.T) {
	t.Parallel()
	for _, hostLane := range wire.Lanes() {
		sim := hostsimtest.Start(t, hostsim.Config{Lane: hostLane})
		for _, clientLane := range wire.Lanes() {
			c, err := New(Config{Endpoint: sim.URL, Token: "sim-primary", Lane: clientLane})
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Discover(context.Background())
			if clientLane == hostLane {
				if err != nil || d.API != sim.URL+hostLane.APIRoot {
					t.Errorf("a %s client of a %s host: %+v, %v", clientLane.Name, hostLane.Name, d, err)
				}
				continue
			}
			var de *DiscoveryError
			if !errors.As(err, &de) || de.HostLane != hostLane {
				t.Fatalf("a %s client of a %s host: %v, want a DiscoveryError naming the host's lane", clientLane.Name, hostLane.Name, err)
			}
			if want := "the host speaks " + hostLane.Describe() + ", but this provider speaks " + clientLane.Describe(); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	}
}

// A client without a lane speaks the default lane.
func TestClientDefaultsToTheDefaultLane(t *testing.T) {
	t.Parallel()
	c, err := New(Config{Endpoint: "http://127.0.0.1:1", Token: "t"})
	if err != nil || c.Lane() != wire.DefaultLane {
		t.Fatalf("lane %v, %v", c.Lane(), err)
	}
}
