package hostsim_test

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// A host speaks exactly the lane of its catalog (docs/protocol.md#lanes): discovery
// and routes on that lane's paths, nothing on another lane's.
func TestHostSpeaksTheLaneOfItsCatalog(t *testing.T) {
	for _, lane := range wire.Lanes() {
		t.Run(lane.Name, func(t *testing.T) {
			sim := hostsimtest.Start(t, hostsim.Config{Lane: lane})
			c := newClient(t, sim.URL, "sim-primary")
			d := c.do("GET", lane.DiscoveryPath, nil, nil).status(200).json()
			if v, _ := d["api_versions"].([]any); len(v) != 1 || v[0] != lane.APIVersion {
				t.Errorf("api_versions %v, want [%s]", d["api_versions"], lane.APIVersion)
			}
			if api := d["endpoints"].(map[string]any)["api"]; api != sim.URL+lane.APIRoot {
				t.Errorf("endpoints.api %v, want %s", api, sim.URL+lane.APIRoot)
			}
			forms := c.do("GET", lane.APIRoot+"/support/forms", nil, nil).status(200).body
			for _, group := range lane.Families {
				if strings.Contains(group, "takokit.dev") && !strings.Contains(string(forms), group) {
					t.Errorf("the %s host does not serve the project's family %s: %s", lane.Name, group, forms)
				}
			}
			for _, other := range wire.Lanes() {
				if other == lane {
					continue
				}
				r := c.do("GET", other.DiscoveryPath, nil, nil).refused("resource_not_found", 404)
				if !strings.Contains(string(r.body), "in the "+lane.APIVersion+" lane") {
					t.Errorf("another lane's discovery: %s", r.body)
				}
				c.do("GET", other.APIRoot+"/support/forms", nil, nil).refused("resource_not_found", 404)
			}
		})
	}
}

// A lane option and a catalog that chose another lane are refused naming both.
func TestHostRefusesACatalogOfAnotherLane(t *testing.T) {
	v3, err := catalog.EmbeddedLane(wire.V1alpha3)
	if err != nil {
		t.Fatal(err)
	}
	_, err = hostsim.New(hostsim.Config{Catalog: v3, Lane: wire.V1beta1})
	if err == nil || !strings.Contains(err.Error(), "forms.takoform.com/v1alpha3") || !strings.Contains(err.Error(), "forms.takoform.com/v1beta1") {
		t.Fatalf("a v1alpha3 catalog on --lane v1beta1: %v", err)
	}
	h, err := hostsim.New(hostsim.Config{Catalog: v3})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if h.Lane() != wire.V1alpha3 {
		t.Errorf("a host over the v1alpha3 catalog speaks %s", h.Lane())
	}
}
