package idempotency

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// A record put in one transaction is what Lookup answers in the next: the
// same request replays it, another request under the key is refused, and a
// record bound to an incarnation retires (is dropped) once it is gone.
func TestLookupReplaysRefusesAndRetires(t *testing.T) {
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := time.Unix(1_700_000_000, 0)
	recs := &Records{Life: 24 * time.Hour, Now: func() time.Time { return now }}
	key := func(body string) Key {
		return KeyOf("tenant-a", "alice", "k-1", "PUT", "/x", http.Header{}, []byte(body), nil).In("prod")
	}
	write := func(fn func(q store.Q) error) {
		t.Helper()
		if err := st.Write(context.Background(), fn); err != nil {
			t.Fatal(err)
		}
	}
	lookup := func(k Key, fs *fault.Set) (rec *store.Record, e *wire.Error) {
		write(func(q store.Q) error { rec, e = recs.Lookup(q, k, fs); return nil })
		return rec, e
	}
	if rec, e := lookup(key(`{}`), nil); rec != nil || e != nil {
		t.Fatalf("a new key: %+v %v; want nothing", rec, e)
	}
	res := &stored.Resource{Tenant: "tenant-a", Space: "prod", APIVersion: "g/v1", Kind: "Queue", Name: "orders",
		UID: "u-1", DefVersion: "0.1.0", SchemaDigest: "sha256:x", Generation: 1, Revision: 1, Spec: []byte(`{}`)}
	write(func(q store.Q) error {
		if err := store.InsertResource(q, res); err != nil {
			return err
		}
		return recs.Put(q, key(`{}`), 201, `"1"`, []byte(`{"a":1}`), "u-1", "")
	})
	rec, e := lookup(key(`{}`), nil)
	if e != nil || rec == nil || rec.Status != 201 || rec.ETag != `"1"` || string(rec.Body) != `{"a":1}` {
		t.Fatalf("the same request: %+v %v; want the recorded 201", rec, e)
	}
	if rec, e := lookup(key(`{ }`), nil); rec != nil || e == nil || e.Code != wire.CodeInvalidArgument {
		t.Fatalf("another request under the key: %+v %v; want invalid_argument", rec, e)
	}
	if rec, e := lookup(key(`{}`), fault.Fixed(fault.Spec{Fault: fault.IdempotencyNoReplay.Name})); rec != nil || e != nil {
		t.Fatalf("idempotency.no-replay: %+v %v; want the request run afresh", rec, e)
	}
	if rec, _ := lookup(KeyOf("tenant-a", "bob", "k-1", "PUT", "/x", http.Header{}, []byte(`{}`), nil).In("prod"), nil); rec != nil {
		t.Fatal("another principal was answered alice's record")
	}

	write(func(q store.Q) error { return store.DeleteResource(q, res) })
	if rec, e := lookup(key(`{}`), fault.Fixed(fault.Spec{Fault: fault.IdempotencyNoRetire.Name})); rec == nil || e != nil {
		t.Fatalf("idempotency.no-retire kept nothing to replay: %+v %v", rec, e)
	}
	if rec, e := lookup(key(`{ }`), nil); rec != nil || e != nil {
		t.Fatalf("the record of a gone incarnation: %+v %v; want it retired and the request run", rec, e)
	}
	var left *store.Record
	write(func(q store.Q) error { left, err = store.GetRecord(q, "tenant-a", "alice", "prod", "k-1"); return err })
	if left != nil {
		t.Fatalf("the retired record was not dropped: %+v", left)
	}
}
