package lane_test

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// An update accepted for later (the async probe) names in its operation the
// uid of the resource it changes; a create names none yet.
func TestAsyncUpdateNamesItsTarget(t *testing.T) {
	h := newHost(t, "orders")
	var got struct {
		Metadata struct{ UID string }
	}
	_ = json.Unmarshal(h.do("GET", h.path("orders")+h.query(), nil, nil).want(200).body, &got)
	fence := map[string]string{"Takoform-Expected-Generation": "1"}
	r := h.do("POST", wire.DefaultLane.APIRoot+"/resources/prepare", fence, h.doc("orders", nil)).want(200)
	var prep struct {
		Review struct{ PrepareDigest string }
	}
	_ = json.Unmarshal(r.body, &prep)
	r = h.do("PUT", h.path("orders"), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": h.key(),
		"Takoform-Conformance-Probe": "async"}, h.doc("orders", map[string]any{"review": map[string]any{"prepareDigest": prep.Review.PrepareDigest}})).want(202)
	var op struct {
		Operation struct {
			Target struct{ UID string }
		}
	}
	_ = json.Unmarshal(r.body, &op)
	if got.Metadata.UID == "" || op.Operation.Target.UID != got.Metadata.UID {
		t.Fatalf("the accepted update targets uid %q, want the resource's %q: %s", op.Operation.Target.UID, got.Metadata.UID, r.body)
	}
}
