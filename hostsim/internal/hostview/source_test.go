package hostview

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Every counter the admin API shows is read: uploads and support reads too.
func TestCountersReadEveryCounter(t *testing.T) {
	src, st := newSource(t)
	ctx := context.Background()
	err := st.Write(ctx, func(q store.Q) error {
		for name, v := range map[string]int64{"requests": 9, "mutations": 4, "uploads": 2, "supportReads": 5} {
			if err := store.AddCounter(q, name, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := src.Counters(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := &Counters{Requests: 9, Mutations: 4, Uploads: 2, SupportReads: 5, Dispatch: map[string]int64{}, Fired: map[string]int64{}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("counters %+v, want %+v", c, want)
	}
}

// A resource as the admin sees it carries the Form transition claim it holds,
// the last transition that advanced it and whether a native id is claimed;
// a name nothing holds is nil.
func TestResourceCarriesItsClaims(t *testing.T) {
	src, st := newSource(t)
	ctx := context.Background()
	queue := formOf(t, src, "AtLeastOnceQueue")
	stored := storedResource(queue, "orders", "u-1", `{"deliveryDelaySeconds":0,"messageRetentionSeconds":345600}`)
	stored.NativeID, stored.ClaimOp, stored.ClaimSince, stored.LastTransition = "native-7", "formtx_2", "2026-01-02T03:04:05Z", "formtx_1"
	insertResource(t, st, stored)
	r, err := src.Resource(ctx, "tenant-a", "prod", queue.Ref.APIVersion, queue.Ref.Kind, "orders")
	if err != nil || r == nil {
		t.Fatalf("resource: %v %v", r, err)
	}
	if r.Claim != "formtx_2" || r.LastTransition != "formtx_1" || !r.NativeClaimed || r.UID != "u-1" {
		t.Errorf("resource %+v: want claim formtx_2, last transition formtx_1, native id claimed", r)
	}
	if none, err := src.Resource(ctx, "tenant-a", "prod", queue.Ref.APIVersion, queue.Ref.Kind, "nothing"); none != nil || err != nil {
		t.Errorf("a name nothing holds: %+v, %v; want nil, nil", none, err)
	}
}

// Operations are listed as stored: polls so far, polls until they settle,
// done, the document.
func TestOperationsAsStored(t *testing.T) {
	src, st := newSource(t)
	ctx := context.Background()
	doc := []byte(`{"metadata":{"phase":"Failed"},"error":{"code":"conflict","message":"taken"}}`)
	err := st.Write(ctx, func(q store.Q) error {
		return store.InsertOperation(q, &store.Operation{ID: "op-1", Tenant: "tenant-a", Principal: "p", Action: "apply", Kind: "AtLeastOnceQueue",
			Name: "orders", TargetUID: "u-1", Polls: 2, CompleteAfter: 3, Done: true, Doc: doc, Request: []byte("{}"), CreatedAt: 1})
	})
	if err != nil {
		t.Fatal(err)
	}
	ops, err := src.Operations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []Operation{{ID: "op-1", Tenant: "tenant-a", Principal: "p", Action: "apply", Kind: "AtLeastOnceQueue", Name: "orders",
		TargetUID: "u-1", Done: true, Polls: 2, CompleteAfter: 3, Document: doc}}
	if !reflect.DeepEqual(ops, want) {
		t.Errorf("operations %+v\nwant %+v", ops, want)
	}
	if o := ops[0].Outcome(); o != (Outcome{Phase: "Failed", Code: "conflict", Message: "taken"}) {
		t.Errorf("outcome %+v", o)
	}
}

// A host serving no Form transitions has an empty ledger, never nil lists.
func TestTransitionsWithoutALedger(t *testing.T) {
	src, _ := newSource(t)
	got, err := src.Transitions(context.Background())
	if err != nil || got.Transitions == nil || got.Backend == nil || got.BackendLedger == nil ||
		len(got.Transitions)+len(got.Backend)+len(got.BackendLedger) != 0 {
		t.Errorf("transitions %+v, %v; want empty lists", got, err)
	}
}

// Reset writes the requests counted so far before it empties the tables, so
// none is counted after it (the counter writer batches for a while), clears
// the journal and drops the SQLiteDatabase resources' databases.
func TestResetForgetsTheRequestsBeforeIt(t *testing.T) {
	src, _ := newSource(t)
	ctx := context.Background()
	src.Journal.Request("tenant-a", "GET", "/x", "/x", "", 200, true)
	if _, err := src.DBs.Open("u-db"); err != nil {
		t.Fatal(err)
	}
	if err := src.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := src.Counters(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c.Requests != 0 || c.SupportReads != 0 {
		t.Errorf("after a reset: %d requests, %d support reads counted; want none", c.Requests, c.SupportReads)
	}
	if evs, _ := src.Events(ctx, 0, 10); len(evs) != 0 {
		t.Errorf("after a reset the journal holds %d events", len(evs))
	}
	if d, err := src.DBs.Existing("u-db"); d != nil || err != nil {
		t.Errorf("after a reset the database of u-db is still there: %v, %v", d, err)
	}
}

// Typed outputs: each output the recorded Form declares, in declaration
// order, with the served value and its JSON type (absent ones too), then
// the members the Form does not declare, by name.
func TestTypedOutputs(t *testing.T) {
	src, _ := newSource(t)
	ep := formOf(t, src, "WorkerEndpoint")
	if len(ep.Outputs) < 2 {
		t.Fatalf("%s declares %d outputs; the test needs one served and one absent", ep.Ref, len(ep.Outputs))
	}
	first := ep.Outputs[0] // served; the others are absent
	served := map[string]any{first.Wire: "x", "zeta": 1.5, "alpha": nil, "list": []any{1}, "obj": map[string]any{}, "n": 3.0, "flag": true}
	b, _ := json.Marshal(served)
	r := &Resource{APIVersion: ep.Ref.APIVersion, Kind: ep.Ref.Kind, DefinitionVersion: ep.Ref.DefinitionVersion, SchemaDigest: ep.Ref.SchemaDigest,
		Served: &render.Representation{Status: render.Status{Outputs: b}}}
	got := src.TypedOutputs(r)
	var want []Output
	for _, o := range ep.Outputs {
		switch o.Wire {
		case first.Wire:
			want = append(want, Output{Name: o.Wire, Type: o.Type, Description: o.Description, Value: "x", Present: true, Served: "string"})
		default:
			want = append(want, Output{Name: o.Wire, Type: o.Type, Description: o.Description})
		}
	}
	want = append(want,
		Output{Name: "alpha", Type: "undeclared", Present: true, Served: "null"},
		Output{Name: "flag", Type: "undeclared", Value: true, Present: true, Served: "boolean"},
		Output{Name: "list", Type: "undeclared", Value: []any{1.0}, Present: true, Served: "array"},
		Output{Name: "n", Type: "undeclared", Value: 3.0, Present: true, Served: "integer"},
		Output{Name: "obj", Type: "undeclared", Value: map[string]any{}, Present: true, Served: "object"},
		Output{Name: "zeta", Type: "undeclared", Value: 1.5, Present: true, Served: "number"},
	)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("typed outputs\n%+v\nwant\n%+v", got, want)
	}
}
