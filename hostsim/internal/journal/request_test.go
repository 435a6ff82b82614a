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
