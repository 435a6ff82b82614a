package lifecycle_test

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// operation is an Operation document as served.
type operation struct {
	ID       string            `json:"id"`
	Done     bool              `json:"done"`
	Metadata map[string]string `json:"metadata"`
	Target   map[string]string `json:"target"`
	Result   map[string]any    `json:"result"`
	Error    *wire.Error       `json:"error"`
}

// accept records a pending create of orders and returns its operation.
func (w *world) accept() *store.Operation {
	w.t.Helper()
	f := w.formOf("AtLeastOnceQueue")
	var spec map[string]any
	_ = json.Unmarshal(f.Fixtures[0].Desired, &spec)
	m := &decide.Mutation{Action: "apply", Tenant: tenant, Principal: "alice", Ref: f.Ref, Space: space, Name: "orders",
		Spec: spec, IfNoneMatch: true}
	var op *store.Operation
	w.write(func(q store.Q) error {
		body, id, err := w.en.Accept(q, lifecycle.Accepted{Tenant: tenant, Principal: "alice", Action: "apply",
			Kind: f.Ref.Kind, Name: "orders", Request: m, CompleteAfter: 2})
		if err != nil {
			return err
		}
		var a struct{ Operation operation }
		if err := json.Unmarshal(body, &a); err != nil || a.Operation.ID != id || a.Operation.Done || a.Operation.Metadata["phase"] != "Accepted" {
			w.t.Fatalf("the 202 body %s: %v", body, err)
		}
		op, err = store.GetOperation(q, id)
		return err
	})
	return op
}

func (w *world) settle(op *store.Operation, forced *wire.Error) operation {
	w.t.Helper()
	w.write(func(q store.Q) error { return settle(w.en, q, op, forced) })
	var doc operation
	if err := json.Unmarshal(op.Doc, &doc); err != nil {
		w.t.Fatal(err)
	}
	return doc
}

// A pending operation holds nothing; settling it decides the accepted
// request again against the store as it is then and commits it.
func TestSettleCommitsTheAcceptedRequest(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	op := w.accept()
	if r := w.stored("orders"); r != nil {
		t.Fatalf("an accepted create stored %+v before its commit", r)
	}
	doc := w.settle(op, nil)
	r := w.stored("orders")
	if !doc.Done || doc.Metadata["phase"] != "Succeeded" || r == nil || doc.Target["uid"] != r.UID || doc.Result["resource"] == nil {
		t.Fatalf("settled %+v, stored %+v; want Succeeded with the resource it created", doc, r)
	}
}

// The re-decision at commit can refuse: the name was taken meanwhile. The
// operation fails with that refusal and nothing is stored.
func TestSettleFailsWhenTheCommitIsRefused(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	op := w.accept()
	w.storeQueue("orders", "u-first")
	doc := w.settle(op, nil)
	if !doc.Done || doc.Metadata["phase"] != "Failed" || doc.Error == nil || doc.Error.Code != wire.CodeGenerationConflict {
		t.Fatalf("settled %+v; want Failed with generation_conflict", doc)
	}
	if r := w.stored("orders"); r == nil || r.UID != "u-first" {
		t.Fatalf("the holder of the name changed: %+v", r)
	}
}

// The admin API's failure and a cancel end the operation without committing.
func TestForcedFailureAndCancelCommitNothing(t *testing.T) {
	w := &world{t: t}
	w.host("full", nil)
	t.Cleanup(w.close)
	doc := w.settle(w.accept(), decide.Refuse(wire.CodeBackendUnavailable, "forced"))
	if doc.Metadata["phase"] != "Failed" || doc.Error == nil || doc.Error.Code != wire.CodeBackendUnavailable || w.stored("orders") != nil {
		t.Fatalf("forced failure: %+v, stored %+v", doc, w.stored("orders"))
	}
	op := w.accept()
	w.write(func(q store.Q) error { return w.en.Cancel(q, op) })
	_ = json.Unmarshal(op.Doc, &doc)
	if !op.Done || doc.Metadata["phase"] != "Cancelled" || doc.Error == nil || doc.Error.Code != wire.CodeOperationCancelled || w.stored("orders") != nil {
		t.Fatalf("cancel: %+v, stored %+v", doc, w.stored("orders"))
	}
}

// The error of a failed Operation carries the host's reason code when the
// refusal has one, and no hostCode member when it has none.
func TestDocumentCarriesTheHostCode(t *testing.T) {
	with := wire.NewError(wire.CodeInvalidArgument, "bad")
	with.HostCode = "migration_file_failed"
	for _, c := range []struct {
		e    *wire.Error
		want string
	}{{with, "migration_file_failed"}, {wire.NewError(wire.CodeInvalidArgument, "bad"), ""}} {
		var doc struct{ Error map[string]any }
		if err := json.Unmarshal(lifecycle.Document("op_1", "", "Failed", nil, c.e), &doc); err != nil {
			t.Fatal(err)
		}
		got, present := doc.Error["hostCode"]
		if c.want == "" && present || c.want != "" && got != c.want {
			t.Fatalf("the error member %v; want hostCode %q (absent when empty)", doc.Error, c.want)
		}
	}
}

// settle is Settle where no application's database can fail: an unsettled
// answer is returned as the error too.
func settle(en *lifecycle.Engine, q store.Q, op *store.Operation, forced *wire.Error) error {
	unsettled, err := en.Settle(q, op, forced, nil)
	if err == nil && unsettled != nil {
		return unsettled
	}
	return err
}
