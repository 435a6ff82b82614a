package lifecycle

import (
	"encoding/json"
	"testing"
)

// The journal's mutation events keep the JSON they had as maps.
func TestMutationEventsMarshalAsTheirMaps(t *testing.T) {
	m, _ := json.Marshal(mutationEvent{Tenant: "t", Space: "s", Kind: "K", Name: "n", UID: "u-1", Generation: 2, Revision: 3, Created: true})
	want, _ := json.Marshal(map[string]any{"tenant": "t", "space": "s", "kind": "K", "name": "n", "uid": "u-1",
		"generation": int64(2), "revision": int64(3), "created": true, "changed": false})
	if string(m) != string(want) {
		t.Errorf("mutation event %s, want %s", m, want)
	}
	d, _ := json.Marshal(deletionEvent{Tenant: "t", Space: "s", Kind: "K", Name: "n", UID: "u-1", Deleted: true})
	want, _ = json.Marshal(map[string]any{"tenant": "t", "space": "s", "kind": "K", "name": "n", "uid": "u-1", "deleted": true})
	if string(d) != string(want) {
		t.Errorf("deletion event %s, want %s", d, want)
	}
}
