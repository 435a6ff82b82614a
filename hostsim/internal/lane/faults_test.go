package lane_test

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// journaled is the status of each request the journal holds for route, in order.
func (h *host) journaled(route string) []int {
	h.t.Helper()
	reqs, err := h.sim.Admin.Requests()
	if err != nil {
		h.t.Fatal(err)
	}
	var st []int
	for _, r := range reqs {
		if r.Route == route {
			st = append(st, r.Status)
		}
	}
	return st
}

// fired asserts how often a fault has fired on the host.
func (h *host) fired(name string, want int64) {
	h.t.Helper()
	n, err := h.sim.Admin.Counters()
	if err != nil || n.Fired[name] != want {
		h.t.Fatalf("%s fired %v times (%v), want %d", name, n.Fired[name], err, want)
	}
}

// space.ignore reaches into other spaces only for a resource its own space
// lacks: a read that finds it where asked does not fire.
func TestSpaceIgnoreFiresOnlyOnAMiss(t *testing.T) {
	h := newHost(t, "orders")
	if err := h.sim.Admin.ArmFault("space.ignore"); err != nil {
		t.Fatal(err)
	}
	h.do("GET", h.path("orders")+h.query(), nil, nil).want(200)
	h.fired("space.ignore", 0)
}

// response.drop-after-commit on delete: the delete commits, the connection
// closes with no answer, and the resend of the same request gets the 204.
func TestDeleteDropAfterCommit(t *testing.T) {
	h := newHost(t, "orders")
	h.arm("response.drop-after-commit,route=delete,count=1")
	hd := h.deleteLost()
	h.fired("response.drop-after-commit", 1)
	h.do("DELETE", h.path("orders")+h.query(), hd, nil).want(204)
	h.do("GET", h.path("orders")+h.query(), nil, nil).refused("resource_not_found", "")
	// The journal tells the dropped delete (no answer: status 0) from its replay.
	if st := h.journaled("delete"); !slices.Equal(st, []int{0, 204}) {
		t.Fatalf("the journal holds delete statuses %v, want [0 204]", st)
	}
}

// response.drop-replay drops the recorded answer a resend finds: after
// response.drop-after-commit, the delete and its resend both go unanswered, and
// only a third send hears the 204. A first send finds no record, so the fault
// does not fire on it.
func TestDropReplayLosesTheResendToo(t *testing.T) {
	h := newHost(t, "orders")
	h.arm("response.drop-after-commit,route=delete,count=1", "response.drop-replay,route=delete,count=1")
	hd := h.deleteLost()
	h.fired("response.drop-after-commit", 1)
	h.fired("response.drop-replay", 0)
	h.wantDropped("DELETE", h.path("orders")+h.query(), hd)
	h.fired("response.drop-replay", 1)
	h.do("DELETE", h.path("orders")+h.query(), hd, nil).want(204)
	if st := h.journaled("delete"); !slices.Equal(st, []int{0, 0, 204}) {
		t.Fatalf("the journal holds delete statuses %v, want [0 0 204]", st)
	}
	h.do("GET", h.path("orders")+h.query(), nil, nil).refused("resource_not_found", "")
}

// arm arms each fault, given in text form, on the host.
func (h *host) arm(faults ...string) {
	h.t.Helper()
	for _, f := range faults {
		if err := h.sim.Admin.ArmFault(f); err != nil {
			h.t.Fatal(err)
		}
	}
}

// deleteLost sends a keyed delete of orders, which an armed fault must leave
// unanswered, and returns its headers for the resends.
func (h *host) deleteLost() map[string]string {
	h.t.Helper()
	hd := map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": h.key()}
	h.wantDropped("DELETE", h.path("orders")+h.query(), hd)
	return hd
}

// wantDropped sends a request on a fresh connection and fails the test unless
// the host closes it without an answer.
func (h *host) wantDropped(method, path string, hd map[string]string) {
	h.t.Helper()
	req, _ := http.NewRequest(method, h.sim.URL+path, nil)
	req.Header.Set("Authorization", "Bearer sim-primary")
	for k, v := range hd {
		req.Header.Set(k, v)
	}
	// A fresh connection: Go's transport retries an idempotent method (DELETE)
	// by itself only on a reused one.
	// A deadline: a connection the host never closes must fail the test as one
	// that is not dropped, not hang it.
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr, Timeout: 4 * time.Second}).Do(req)
	if err == nil {
		resp.Body.Close()
		h.t.Fatalf("%s was answered HTTP %d; the fault should have dropped the connection", method, resp.StatusCode)
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		h.t.Fatalf("%s was neither answered nor dropped: the connection stayed open (%v)", method, err)
	}
}

// A request that reuses the key of a recorded one with other bytes is refused
// invalid_argument at the record lookup, and does not spend response.drop-replay:
// the next resend of the recorded request is the one dropped.
func TestDropReplayIsNotSpentByAReusedKey(t *testing.T) {
	h := newHost(t, "orders")
	h.arm("response.drop-after-commit,route=delete,count=1")
	hd := h.deleteLost()
	h.arm("response.drop-replay,route=delete,count=1")
	other := map[string]string{"Takoform-Expected-Generation": "2", "Idempotency-Key": hd["Idempotency-Key"]}
	h.do("DELETE", h.path("orders")+h.query(), other, nil).refused("invalid_argument", "")
	h.fired("response.drop-replay", 0)
	h.wantDropped("DELETE", h.path("orders")+h.query(), hd)
	h.fired("response.drop-replay", 1)
	h.do("DELETE", h.path("orders")+h.query(), hd, nil).want(204)
}

// A read that fails inside an observe's write is the host's failure, never
// "nothing there": under space.ignore the observe of a resource asked in a
// space that lacks it reads the resource where asked and then in any space,
// and store.read-fail failing each in turn answers internal_error naming the
// fault, not resource_not_found; the resend of an observe already answered
// reads its idempotency record, and failing that read answers the same
// internal_error, not an empty replay.
func TestReadFailuresInAnObserveAreFailures(t *testing.T) {
	h := newHost(t, "orders")
	h.arm("space.ignore")
	elsewhere := "?" + wire.ExactQuery("elsewhere", h.f.Ref).Encode()
	observe := func(key string) *reply {
		return h.do("POST", h.path("orders")+"/observe"+elsewhere,
			map[string]string{"Idempotency-Key": key, "Takoform-Expected-Generation": "1"}, nil)
	}
	says := func(n int) string {
		return fmt.Sprintf("read %d inside this request's writes failed: the store.read-fail fault", n)
	}
	failed := 0
	for n := 1; ; n++ {
		if n > 20 {
			t.Fatal("an observe of more than 20 reads: the sweep does not end")
		}
		h.arm(fmt.Sprintf("store.read-fail=%d,route=observe,count=1", n))
		r := observe(h.key())
		if r.status == 200 {
			break
		}
		r.refused("internal_error", says(n))
		failed++
	}
	if failed < 2 {
		t.Fatalf("store.read-fail failed %d reads of the observe, want at least 2 (the resource where asked, in any space)", failed)
	}
	key := h.key()
	first := observe(key).want(200)
	h.arm("store.read-fail=1,route=observe,count=1")
	observe(key).refused("internal_error", says(1))
	if again := observe(key).want(200); !bytes.Equal(again.body, first.body) {
		t.Fatalf("the resend replayed %s, want the first answer %s", again.body, first.body)
	}
}
