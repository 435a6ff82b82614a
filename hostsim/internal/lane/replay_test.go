package lane_test

import (
	"bytes"
	"testing"
)

// A keyed observe is answered from its record: after a host-side status
// change (the touch-status probe: revision +1), the same request replays the
// first answer byte for byte and does not run again (docs/protocol.md#idempotency).
func TestObserveReplaysItsRecord(t *testing.T) {
	h := newHost(t, "orders")
	p := h.path("orders")
	hd := map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": h.key()}
	first := h.do("POST", p+"/observe"+h.query(), hd, nil).want(200)
	touched := h.do("POST", p+"/observe"+h.query(), map[string]string{"Takoform-Expected-Generation": "1",
		"Idempotency-Key": h.key(), "Takoform-Conformance-Probe": "touch-status"}, nil).want(200)
	if touched.header.Get("ETag") == first.header.Get("ETag") {
		t.Fatalf("the touch-status probe did not fire: the revision stayed %s", first.header.Get("ETag"))
	}
	again := h.do("POST", p+"/observe"+h.query(), hd, nil).want(200)
	if !bytes.Equal(first.body, again.body) || first.header.Get("ETag") != again.header.Get("ETag") {
		t.Fatalf("the replay differs from the recorded answer:\nfirst %s %s\nagain %s %s", first.header.Get("ETag"), first.body, again.header.Get("ETag"), again.body)
	}
}

// A delete's key reused on a different request is refused, not answered as
// a replay of nothing.
func TestDeleteKeyReusedIsRefused(t *testing.T) {
	h := newHost(t, "orders")
	p := h.path("orders")
	k := h.key()
	h.do("DELETE", p+h.query(), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": k}, nil).want(204)
	h.do("DELETE", p+h.query(), map[string]string{"Takoform-Expected-Generation": "2", "Idempotency-Key": k}, nil).
		want(400).refused("invalid_argument", "was already used for another request")
}

// A keyed request decides its record's owner once: an ownership fault armed
// for two firings (idempotency.tenant-wide,count=2) fires once for a create
// that both looks its record up and writes it, and once more for the resend
// by another principal of the tenant, which it turns into the replay.
func TestRecordOwnerIsDecidedOnce(t *testing.T) {
	h := newHost(t, "")
	if err := h.sim.Admin.ArmFault("idempotency.tenant-wide,count=2"); err != nil {
		t.Fatal(err)
	}
	fired := func(want int64) {
		t.Helper()
		n, err := h.sim.Admin.Counters()
		if err != nil || n.Fired["idempotency.tenant-wide"] != want {
			t.Fatalf("idempotency.tenant-wide fired %v times (%v), want %d", n.Fired["idempotency.tenant-wide"], err, want)
		}
	}
	hd := map[string]string{"If-None-Match": "*", "Idempotency-Key": h.key()}
	b := h.doc("once", map[string]any{"review": map[string]any{"prepareDigest": h.prepare("once")}})
	first := h.do("PUT", h.path("once"), hd, b).want(201)
	fired(1)
	hd["Authorization"] = "Bearer sim-alternate" // tenant-a, another principal
	if again := h.do("PUT", h.path("once"), hd, b).want(201); !bytes.Equal(again.body, first.body) {
		t.Fatalf("the resend by another principal was not the replay:\n%s\n%s", first.body, again.body)
	}
	fired(2)
}
