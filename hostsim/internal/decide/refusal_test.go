package decide

import (
	"encoding/hex"
	"testing"
)

// details.field is there only when a field is at fault: a refusal about
// the whole spec carries no details at all.
func TestAtFieldNamesOnlyAField(t *testing.T) {
	if e := AtField(Invalid("spec is wrong"), ""); e.Details != nil {
		t.Fatalf("a refusal naming no field carries details %s", e.Details)
	}
	e := AtField(Invalid("spec is wrong"), "/worker")
	if Field(e) != "/worker" || string(e.Details) != `{"field":"/worker"}` {
		t.Fatalf("details %s", e.Details)
	}
}

// A request id is req_ and 20 hex characters, every one of them random: ids
// minted one after another differ in each position.
func TestNewRequestIDIsRandomInEveryPosition(t *testing.T) {
	const n = 200
	seen := make([]map[byte]bool, 20)
	for i := range seen {
		seen[i] = map[byte]bool{}
	}
	for range n {
		id := NewRequestID()
		if _, err := hex.DecodeString(id[4:]); len(id) != 24 || id[:4] != "req_" || err != nil {
			t.Fatalf("request id %q", id)
		}
		for i := range 20 {
			seen[i][id[4+i]] = true
		}
	}
	for i, s := range seen {
		// 200 draws of one hex digit: a fixed digit has one chance in 16^199.
		if len(s) < 2 {
			t.Fatalf("position %d of %d request ids is always %v", i, n, s)
		}
	}
}
