package journal

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// Mutation events are served as the JSON they had as maps, whatever they
// hold, after their packed stay in the ring.
func TestMutationEventsReadBackAsTheirMaps(t *testing.T) {
	j, st := newJournal(t)
	muts := []Mutation{
		{Tenant: "t", Space: "s", Kind: "K", Name: "n", UID: "u-1", Generation: 2, Revision: 3, Created: true},
		{Tenant: "", Space: "é <&>", Kind: "", Name: "n\x00", UID: "", Generation: -1, Revision: 1 << 62, Changed: true},
	}
	dels := []Deletion{{Tenant: "t", Space: "s", Kind: "K", Name: "n", UID: "u-1", Deleted: true}, {}}
	var want []string
	err := st.Write(context.Background(), func(q store.Q) error {
		for _, m := range muts {
			b, _ := json.Marshal(map[string]any{"tenant": m.Tenant, "space": m.Space, "kind": m.Kind, "name": m.Name,
				"uid": m.UID, "generation": m.Generation, "revision": m.Revision, "created": m.Created, "changed": m.Changed})
			want = append(want, string(b))
			Append(q, time.Now(), "mutation", m)
		}
		for _, d := range dels {
			b, _ := json.Marshal(map[string]any{"tenant": d.Tenant, "space": d.Space, "kind": d.Kind, "name": d.Name,
				"uid": d.UID, "deleted": d.Deleted})
			want = append(want, string(b))
			Append(q, time.Now(), "mutation", d)
		}
		want = append(want, `{"step":"x"}`)
		Append(q, time.Now(), "transition", map[string]string{"step": "x"})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	evs, _ := j.Since(context.Background(), 0, 10)
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d", len(evs), len(want))
	}
	for i, e := range evs {
		if string(e.Data) != want[i] {
			t.Errorf("event %d: %s, want %s", i, e.Data, want[i])
		}
	}
}
