package lane_test

import (
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// Prepare refuses an undecodable body and a spec outside the schema with
// their own messages, and a fault scoped to a resource reaches the prepare
// that names it in its body (the route's path names none).
func TestPrepareRefusalsAndScope(t *testing.T) {
	h := newHost(t, "orders")
	prep := wire.DefaultLane.APIRoot + "/resources/prepare"
	h.do("POST", prep, nil, []byte("{")).want(400).refused("invalid_argument", "not acceptable JSON")
	h.do("POST", prep, nil, h.doc("fresh", map[string]any{"spec": map[string]any{"noSuchField": 1}})).
		want(400).refused("invalid_argument", "does not satisfy the desiredSchema")
	h.do("POST", prep, nil, h.doc("orders", nil)).want(400).refused("invalid_argument", "Takoform-Expected-Generation")
	if err := h.sim.Admin.ArmFault("prepare.no-fence,resource=orders"); err != nil {
		t.Fatal(err)
	}
	h.do("POST", prep, nil, h.doc("orders", nil)).want(200)
	n, err := h.sim.Admin.Counters()
	if err != nil || n.Fired["prepare.no-fence"] != 1 {
		t.Fatalf("prepare.no-fence fired %v times (%v), want 1", n.Fired["prepare.no-fence"], err)
	}
}
