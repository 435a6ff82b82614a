package hostsim_test

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestSmokeDiscovery(t *testing.T) {
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t)})
	c := newClient(t, sim.URL, "sim-primary")
	r := c.do("GET", discovery, nil, nil)
	r.status(200)
	t.Logf("%s", r.body)
}
