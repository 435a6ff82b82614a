package operationroute

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// opCall is a Call over a real store, as one principal of tenant-a.
type opCall struct {
	st        *store.Store
	principal string
	id        string
	body      []byte
	writes    int
	pending   bool
	status    int
	doc       map[string]any
}

func (c *opCall) Owner() (string, string)  { return "tenant-a", c.principal }
func (c *opCall) Faults() *fault.Set       { return nil }
func (c *opCall) Param(name string) string { return map[string]string{"id": c.id}[name] }
func (c *opCall) Pending()                 { c.pending = true }

func (c *opCall) RequireEmptyBody() *wire.Error {
	if len(c.body) > 0 {
		return decide.Invalid("route takes an empty body")
	}
	return nil
}

func (c *opCall) Write(fn func(q store.Q) error) *wire.Error {
	c.writes++
	if err := c.Faults().Write(context.Background(), c.st, time.Now, fn); err != nil {
		if e, ok := err.(*wire.Error); ok {
			return e
		}
		return decide.Internal(err)
	}
	return nil
}

func (c *opCall) Send(status int, body []byte, etag string) {
	c.status = status
	if err := json.Unmarshal(body, &c.doc); err != nil {
		panic(err)
	}
}

// A pending operation polls as pending (Retry-After) for its own principal
// only, and a cancel ends it; a cancel with a body is refused before any write.
func TestPollAndCancel(t *testing.T) {
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	en := &lifecycle.Engine{Now: time.Now}
	op := &store.Operation{ID: "op_1", Tenant: "tenant-a", Principal: "alice", Action: "apply", Kind: "EdgeKVNamespace",
		Name: "kv", Request: []byte(`{}`), CompleteAfter: -1, Doc: lifecycle.Document("op_1", "", "Accepted", nil, nil)}
	if err := st.Write(context.Background(), func(q store.Q) error { return store.InsertOperation(q, op) }); err != nil {
		t.Fatal(err)
	}

	c := &opCall{st: st, principal: "alice", id: "op_1"}
	if e := Poll(en, c); e != nil || c.status != http.StatusOK || !c.pending || c.doc["done"] != false {
		t.Fatalf("poll: %v, %d, pending %v, %v; want 200, pending, not done", e, c.status, c.pending, c.doc)
	}
	var polls int64
	_ = st.Read(context.Background(), func(q store.Q) error {
		got, err := store.GetOperation(q, "op_1")
		polls = got.Polls
		return err
	})
	if polls != 1 {
		t.Fatalf("polls %d after one poll, want 1 (a poll commits)", polls)
	}

	bob := &opCall{st: st, principal: "bob", id: "op_1"}
	if e := Poll(en, bob); e == nil || e.Code != wire.CodeOperationNotFound || bob.status != 0 {
		t.Fatalf("another principal's poll: %v, sent %d; want operation_not_found and nothing sent", e, bob.status)
	}

	withBody := &opCall{st: st, principal: "alice", id: "op_1", body: []byte("{}")}
	if e := Cancel(en, withBody); e == nil || e.Code != wire.CodeInvalidArgument || withBody.writes != 0 {
		t.Fatalf("cancel with a body: %v after %d writes; want invalid_argument before any", e, withBody.writes)
	}

	cancel := &opCall{st: st, principal: "alice", id: "op_1"}
	if e := Cancel(en, cancel); e != nil || cancel.status != http.StatusOK || cancel.doc["done"] != true {
		t.Fatalf("cancel: %v, %d, %v; want 200 and a done Operation", e, cancel.status, cancel.doc)
	}
	again := &opCall{st: st, principal: "alice", id: "op_1"}
	if e := Poll(en, again); e != nil || again.pending || again.doc["done"] != true {
		t.Fatalf("poll after cancel: %v, pending %v, %v; want done, no Retry-After", e, again.pending, again.doc)
	}
}
