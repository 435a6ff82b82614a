package hostsim_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestWriteTransactionsPerLifecycle counts the SQLite write transactions of a
// prepare → PUT → GET → DELETE: one per mutation, and none for the prepare mint
// on the in-memory database (only the mirror keeps it there), one with --db
// (docs/decisions.md, "prepare mints on the in-memory database"). With --db
// each request also costs the journal one counter write, which Flush waits
// for; in memory the mirror alone keeps counters and records, so that write
// commits no SQLite transaction, and a mutation's transaction writes its
// resource row alone ("records on the in-memory database").
func TestWriteTransactionsPerLifecycle(t *testing.T) {
	for _, tc := range []struct {
		name             string
		db               string
		prepare, counter int64
	}{
		{"in-memory", "", 0, 0},
		{"database file", filepath.Join(t.TempDir(), "host.db"), 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := testCatalog(t)
			h, err := hostsim.New(hostsim.Config{Catalog: cat, DBPath: tc.db})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			c := handlerClient{b: t, h: h.Handler()}
			f := updatable(t, cat)
			spec := fixture(t, f)
			st := h.State()
			step := func(what string, want int64, do func() []byte) []byte {
				t.Helper()
				st.Journal.Flush()
				before := st.Store.Commits()
				out := do()
				st.Journal.Flush()
				if got := st.Store.Commits() - before - tc.counter; got != want {
					t.Errorf("%s: %d write transactions besides the request counter, want %d", what, got, want)
				}
				return out
			}
			pb := step("prepare", tc.prepare, func() []byte {
				return c.do("POST", api+"/resources/prepare", nil, body(f, "r1", "bench", spec, nil), 200)
			})
			var p struct {
				Review struct{ PrepareDigest string }
			}
			if err := json.Unmarshal(pb, &p); err != nil || p.Review.PrepareDigest == "" {
				t.Fatalf("prepare answered %s", pb)
			}
			step("PUT", 1, func() []byte {
				return c.do("PUT", resPath(f, "r1"), map[string]string{"If-None-Match": "*", "Idempotency-Key": "k-r1"},
					body(f, "r1", "bench", spec, map[string]any{"review": map[string]any{"prepareDigest": p.Review.PrepareDigest}}), 201)
			})
			step("GET", 0, func() []byte { return c.do("GET", resPath(f, "r1")+exactQuery(f, "bench"), nil, nil, 200) })
			step("DELETE", 1, func() []byte {
				return c.do("DELETE", resPath(f, "r1")+exactQuery(f, "bench"),
					map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": "d-r1"}, nil, 204)
			})
		})
	}
}
