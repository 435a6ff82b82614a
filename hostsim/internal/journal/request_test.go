package journal

import (
	"context"
	"encoding/json"
	"testing"
)

// A request event reads back as the JSON of its fields, whatever it held.
func TestRequestEventsReadBackAsTheirJSON(t *testing.T) {
	j, _ := newJournal(t)
	cases := []requestEvent{
		{Method: "PUT", Path: "/apis/forms.takoform.com/v1alpha3/resources/edge.forms.takokit.dev/v1alpha1/EdgeKVNamespace/r-1", Route: "apply", Status: 201, Tenant: "tenant-a"},
		{Method: "GET", Path: "/a%2Fb/\"q\"/é", Route: "unrouted", Status: 0, Tenant: ""},
		{Method: "DELETE", Path: "", Route: "delete", Status: 599, Tenant: "t\x00\u2028"},
	}
	for _, c := range cases {
		j.Request(c.Tenant, c.Method, c.Route, c.Path, c.Status, false)
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
