package journal

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// A request event reads back as the JSON of its fields, whatever it held.
func TestRequestEventsReadBackAsTheirJSON(t *testing.T) {
	j, _ := newJournal(t)
	cases := []requestEvent{
		{Method: "PUT", Path: "/apis/forms.takoform.com/v1alpha3/resources/edge.forms.takokit.dev/v1alpha1/EdgeKVNamespace/r-1", Route: "apply", Status: 201, Tenant: "tenant-a"},
		{Method: "GET", Path: "/a%2Fb/\"q\"/é", Route: "unrouted", Status: 0, Tenant: ""},
		{Method: "DELETE", Path: "", Route: "delete", Status: 599, Tenant: "t\x00\u2028", IdempotencyKey: "k-1"},
		{Method: "PUT", Path: "/apis/forms.takoform.com/v1alpha3/resources/x", Route: "apply", Status: 503, Tenant: "t", IdempotencyKey: "retry-" + strings.Repeat("k", 249)},
		{Method: "GET", Path: "/apis/forms.takoform.com/v1alpha3", Route: "unrouted", Status: 404, Tenant: "t"},
		{Method: "GET", Path: "/apis/forms.takoform.com/v1alpha3x", Route: "unrouted", Status: 404, Tenant: "t"},
		{Method: "GET", Path: "/x/apis/forms.takoform.com/v1alpha3", Route: "unrouted", Status: 404, Tenant: "t"},
		// every lane's root is packed and read back as itself
		{Method: "PUT", Path: "/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/EdgeKVNamespace/r-1", Route: "apply", Status: 599, Tenant: "tenant-a"},
		{Method: "GET", Path: "/apis/forms.takoform.com/v1beta1", Route: "unrouted", Status: 404, Tenant: "t"},
	}
	for _, c := range cases {
		j.Request(c.Tenant, c.Method, c.Route, c.Path, c.IdempotencyKey, c.Status, false)
	}
	evs, err := j.Since(context.Background(), 0, 10)
	if err != nil || len(evs) != len(cases) {
		t.Fatalf("%d events, %v", len(evs), err)
	}
	for i, c := range cases {
		want, _ := json.Marshal(c)
		if string(evs[i].Data) != string(want) || evs[i].Type != "request" {
			t.Errorf("event %d: %s %s, want request %s", i, evs[i].Type, evs[i].Data, want)
		}
	}
}

// Events keep their exact data and types through the arena's chunks, an
// event larger than a chunk included, as the ring drops the oldest.
func TestEventsKeepTheirDataAcrossChunks(t *testing.T) {
	j, _ := newJournal(t)
	var want []store.Pending
	for i := range MaxEvents + 500 {
		size := 10 + i%300
		if i%7000 == 3 {
			size = 70 << 10
		}
		data := []byte(`"` + strings.Repeat(string(rune('a'+i%26)), size) + `"`)
		e := store.Pending{At: int64(i), Type: []string{"mutation", "fault", "transition"}[i%3], Data: data}
		want = append(want, e)
		j.add([]store.Pending{e})
	}
	evs, _ := j.Since(context.Background(), 0, MaxEvents)
	want = want[len(want)-MaxEvents:]
	for i, e := range evs {
		if e.Type != want[i].Type || string(e.Data) != string(want[i].Data) || e.Seq != int64(501+i) {
			t.Fatalf("event %d: %d %s %.20s, want %s %.20s", i, e.Seq, e.Type, e.Data, want[i].Type, want[i].Data)
		}
	}
}

// A tenant, method or route is kept up to 255 bytes and cut there; an
// Idempotency-Key up to 65,535 (a valid one has at most 255, but the journal
// records what came).
func TestRequestFieldsAtTheirBounds(t *testing.T) {
	j, _ := newJournal(t)
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	in := []requestEvent{
		{Method: long("M", 255), Path: "/p", Route: long("r", 255), Status: 200, Tenant: long("t", 255), IdempotencyKey: long("k", 300)},
		{Method: long("M", 256), Path: "/p", Route: long("r", 300), Status: 200, Tenant: long("t", 400), IdempotencyKey: long("k", 70000)},
	}
	want := []requestEvent{in[0],
		{Method: long("M", 255), Path: "/p", Route: long("r", 255), Status: 200, Tenant: long("t", 255), IdempotencyKey: long("k", maxKey)}}
	for _, c := range in {
		j.Request(c.Tenant, c.Method, c.Route, c.Path, c.IdempotencyKey, c.Status, false)
	}
	evs, err := j.Since(context.Background(), 0, 10)
	if err != nil || len(evs) != len(want) {
		t.Fatalf("%d events, %v", len(evs), err)
	}
	for i, w := range want {
		var got requestEvent
		if err := json.Unmarshal(evs[i].Data, &got); err != nil || got != w {
			t.Errorf("event %d: tenant %d, method %d, route %d, key %d bytes (%v); want %d, %d, %d, %d", i,
				len(got.Tenant), len(got.Method), len(got.Route), len(got.IdempotencyKey), err,
				len(w.Tenant), len(w.Method), len(w.Route), len(w.IdempotencyKey))
		}
	}
}

// The arena holds no chunk older than the oldest kept event's: a dropped
// event's data is let go with its chunk.
func TestTheArenaLetsGoOfDroppedChunks(t *testing.T) {
	j, _ := newJournal(t)
	data := []byte(`"` + strings.Repeat("x", 1000) + `"`)
	for i := range 3 * MaxEvents {
		j.add([]store.Pending{{At: int64(i), Type: "x", Data: data}})
		if i%997 != 0 || i < MaxEvents {
			continue
		}
		j.mu.Lock()
		first, oldest, held := j.arena.first, j.ring[j.head].chunk, len(j.arena.chunks)
		j.mu.Unlock()
		if first != oldest {
			t.Fatalf("after %d events the arena starts at chunk %d, the oldest kept event lies in %d", i+1, first, oldest)
		}
		// a chunk holds chunkSize/len(data) whole events; the oldest and the newest chunk may be partly used
		if most := MaxEvents/(chunkSize/len(data)) + 2; held > most {
			t.Fatalf("after %d events the arena holds %d chunks, more than the %d the kept events need", i+1, held, most)
		}
	}
}
