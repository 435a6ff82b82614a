package lane

import (
	"slices"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// The route names a fault may be scoped to are exactly the route table's.
func TestFaultRouteNamesAreTheRouteTable(t *testing.T) {
	var names []string
	for _, rt := range routes(wire.DefaultLane) {
		names = append(names, rt.name)
	}
	if !slices.Equal(names, fault.RouteNames) {
		t.Fatalf("fault.RouteNames %v differ from the route table %v", fault.RouteNames, names)
	}
}
