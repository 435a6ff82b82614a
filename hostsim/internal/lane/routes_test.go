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

// Every route of wire.Routes has a handler and every handler a route.
func TestEveryRouteHasAHandler(t *testing.T) {
	seen := map[string]bool{}
	for _, rt := range routes(wire.DefaultLane) {
		if rt.handle == nil {
			t.Errorf("route %s has no handler", rt.name)
		}
		seen[rt.name] = true
	}
	for name := range handlers {
		if !seen[name] {
			t.Errorf("handler %s is bound to no route of wire.Routes", name)
		}
	}
}
