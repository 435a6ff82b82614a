package idempotency

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// failQ hides a store's Q from its mirror (so every lookup runs its query)
// and fails each statement whose text holds on: a disk that gave way under
// one table.
type failQ struct {
	store.Q
	on string
}

func (f failQ) Exec(query string, args ...any) (sql.Result, error) {
	if strings.Contains(query, f.on) {
		return nil, errors.New("disk I/O error")
	}
	return f.Q.Exec(query, args...)
}

func (f failQ) QueryRow(query string, args ...any) *sql.Row {
	if strings.Contains(query, f.on) {
		return f.Q.QueryRow("SELECT x FROM no_such_table") // a Row that scans as an error
	}
	return f.Q.QueryRow(query, args...)
}

// A store that fails under Lookup is an internal_error, never a request run
// afresh as if no record were there (which would run a write twice), nor a
// record replayed or retired on a guess.
func TestLookupStoreFailures(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "host.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Unix(1_700_000_000, 0)
	recs := &Records{Life: 24 * time.Hour, Now: func() time.Time { return now }}
	key := func(k string) Key {
		return KeyOf("tenant-a", "alice", k, "PUT", "/x", http.Header{}, []byte(`{}`), nil).In("prod")
	}
	res := &stored.Resource{Tenant: "tenant-a", Space: "prod", APIVersion: "g/v1", Kind: "Queue", Name: "orders",
		UID: "u-1", DefVersion: "0.1.0", SchemaDigest: "sha256:x", Generation: 1, Revision: 1, Spec: []byte(`{}`)}
	if err := st.Write(context.Background(), func(q store.Q) error {
		if err := store.InsertResource(q, res); err != nil {
			return err
		}
		if err := recs.Put(q, key("bound"), 201, `"1"`, []byte(`{"a":1}`), "u-1", ""); err != nil {
			return err
		}
		return recs.Put(q, key("unbound"), 202, "", []byte(`{"op":1}`), "", "")
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key, failOn string
		age               time.Duration
		replays           bool // else refused with internal_error
	}{
		{name: "reading the record", key: "bound", failOn: "FROM idempotency"},
		{name: "asking whether the bound incarnation lives", key: "bound", failOn: "FROM resources"},
		{name: "dropping an expired record", key: "unbound", failOn: "DELETE FROM idempotency", age: 25 * time.Hour},
		// A record bound to no incarnation replays without asking about one.
		{name: "the resources table, for an unbound record", key: "unbound", failOn: "FROM resources", replays: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now = time.Unix(1_700_000_000, 0).Add(tc.age)
			var rec *store.Record
			var e *wire.Error
			if err := st.Write(context.Background(), func(q store.Q) error {
				rec, e = recs.Lookup(failQ{q, tc.failOn}, key(tc.key), nil)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if tc.replays {
				if e != nil || rec == nil || rec.Status != 202 {
					t.Fatalf("got %+v %v; want the recorded 202 replayed", rec, e)
				}
				return
			}
			if rec != nil || e == nil || e.Code != wire.CodeInternalError || !strings.Contains(e.Message, "disk I/O error") &&
				!strings.Contains(e.Message, "no such table") {
				t.Fatalf("got %+v %v; want internal_error naming the store's failure", rec, e)
			}
		})
	}
}

// A key is its space's: the same key and request in another space is
// another record (docs/protocol.md#idempotency).
func TestLookupKeysBySpace(t *testing.T) {
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	recs := &Records{Life: 24 * time.Hour, Now: func() time.Time { return time.Unix(1_700_000_000, 0) }}
	key := KeyOf("tenant-a", "alice", "k-1", "PUT", "/x", http.Header{}, []byte(`{}`), nil)
	var inProd, inDev *store.Record
	if err := st.Write(context.Background(), func(q store.Q) error {
		if err := recs.Put(q, key.In("prod"), 201, `"1"`, []byte(`{}`), "", ""); err != nil {
			return err
		}
		inProd, _ = recs.Lookup(q, key.In("prod"), nil)
		inDev, _ = recs.Lookup(q, key.In("dev"), nil)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if inProd == nil || inDev != nil {
		t.Fatalf("the record put in prod: looked up in prod %+v, in dev %+v; want it in prod only", inProd, inDev)
	}
}
