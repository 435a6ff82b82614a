package transition_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// receiptOf decodes a 200 receipt strictly (the closed shapes of docs/protocol.md#transitions).
type receiptDoc struct {
	Operation struct {
		OperationID       string `json:"operationId,required"`
		Status            string `json:"status,required"`
		DispatchAttempted bool   `json:"dispatchAttempted,required"`
		RequestDigest     string `json:"requestDigest,required"`
		ReconcilePath     string `json:"reconcilePath,required"`
	} `json:"operation,required"`
	Resource        json.RawMessage `json:"resource,required"`
	TransitionProof struct {
		OperationID              string          `json:"operationId,required"`
		FromForm                 json.RawMessage `json:"fromForm,required"`
		ToForm                   json.RawMessage `json:"toForm,required"`
		TransitionEvidenceDigest string          `json:"transitionEvidenceDigest,required"`
		ObservedSpecDigest       string          `json:"observedSpecDigest,required"`
		UID                      string          `json:"uid,required"`
		Generation               string          `json:"generation,required"`
		NativeIdentityDigest     string          `json:"nativeIdentityDigest,required"`
		Committed                bool            `json:"committed,required"`
	} `json:"transitionProof,required"`
}

// verifyCommitted checks a committed receipt against the request and the env
// fences it was built from (the client's verification, docs/protocol.md#transitions).
func (e *env) verifyCommitted(r *reply, op string, gen int64) {
	e.t.Helper()
	if r.status != 200 {
		e.t.Fatalf("%s: %d %s, want the 200 receipt", r.what, r.status, r.body)
	}
	var rc receiptDoc
	if err := wire.DecodeStrict(r.body, &rc); err != nil {
		e.t.Fatalf("%s: not a closed receipt: %v: %s", r.what, err, r.body)
	}
	o, p := rc.Operation, rc.TransitionProof
	want := api + "/resources/" + e.from.Ref.APIVersion + "/" + e.from.Ref.Kind + "/" + e.name + "/form-transitions/" + op + spaceQ(e.space)
	if o.OperationID != op || o.Status != "committed" || !o.DispatchAttempted || o.ReconcilePath != want {
		e.t.Fatalf("%s: operation %+v, want %s committed dispatched at %s", r.what, o, op, want)
	}
	if p.OperationID != op || !p.Committed || p.UID != e.uid || p.Generation != fmt.Sprint(gen+1) || !wire.ValidDigest(p.NativeIdentityDigest) {
		e.t.Fatalf("%s: proof %+v, want uid %s generation %d", r.what, p, e.uid, gen+1)
	}
	var res struct {
		Form     struct{ FormRef wire.FormRef } `json:"form"`
		Metadata struct{ UID, Generation, Revision string }
		Status   struct {
			Conditions []struct{ Type string }
		}
	}
	_ = json.Unmarshal(rc.Resource, &res)
	if res.Form.FormRef != e.to.Ref || res.Metadata.UID != e.uid || res.Metadata.Generation != fmt.Sprint(gen+1) {
		e.t.Fatalf("%s: receipt resource %+v, want %s uid %s generation %d", r.what, res, e.to.Ref, e.uid, gen+1)
	}
	if r.header.Get("ETag") != `"`+res.Metadata.Revision+`"` {
		e.t.Fatalf("%s: ETag %q, resource revision %s", r.what, r.header.Get("ETag"), res.Metadata.Revision)
	}
	for _, c := range res.Status.Conditions {
		if c.Type == "Reconciling" {
			e.t.Fatalf("%s: the committed resource still shows Reconciling", r.what)
		}
	}
}

func TestCommitReplayAndReadbackAreTheSameReceiptForever(t *testing.T) {
	e := newEnv(t, hostsim.Config{})
	req := e.request()
	op := req.OperationID
	if r := e.readback(op); r.status != 404 {
		t.Fatalf("readback before the POST: %d %s", r.status, r.body)
	} else {
		expectErr(t, r, wire.CodeResourceNotFound, "form_transition_operation_not_found")
	}
	first := e.post(req, nil)
	e.verifyCommitted(first, op, 1)
	if n := e.dispatches(op); n != 1 {
		t.Fatalf("dispatch counter %d, want 1", n)
	}
	// The resource is served under toForm at N+1, never under fromForm.
	now := e.read(e.to)
	if now.status != 200 {
		t.Fatalf("read under toForm: %d %s", now.status, now.body)
	}
	expectErr(t, e.read(e.from), wire.CodeResourceNotFound, "")
	uid, gen := e.uid, e.gen
	e.adopt(now)
	if e.uid != uid || e.gen != gen+1 || e.rev != 3 {
		t.Fatalf("after commit uid %s generation %d revision %d, want %s %d 3 (claim +1, advance +1)", e.uid, e.gen, e.rev, uid, gen+1)
	}
	// A later generation exists: replay and readback still answer the same receipt bytes.
	if r := e.apply(e.to, changedSpec(t, e), e.gen); r.status != 200 {
		t.Fatalf("update after the transition: %d %s", r.status, r.body)
	}
	for i := 0; i < 2; i++ {
		for _, r := range []*reply{e.post(req, nil), e.readback(op)} {
			if r.status != 200 || !bytes.Equal(r.body, first.body) || r.header.Get("ETag") != first.header.Get("ETag") {
				t.Fatalf("%s: %d %s, want the stored receipt byte for byte", r.what, r.status, r.body)
			}
		}
	}
	if n := e.dispatches(op); n != 1 {
		t.Fatalf("replays dispatched again: counter %d", n)
	}
	if r := e.read(e.to); r.json()["metadata"].(map[string]any)["generation"] != fmt.Sprint(gen+2) {
		t.Fatalf("replays moved the generation: %s", r.body)
	}
}

// changedSpec is the transitioned spec with one mutable bounded integer moved.
func changedSpec(t *testing.T, e *env) map[string]any { return changedSpecOf(t, e.to, e.spec) }

// changedSpecOf materializes spec under f and moves one mutable bounded integer.
func changedSpecOf(t *testing.T, f *catalog.Form, spec map[string]any) map[string]any {
	t.Helper()
	m := f.Materialize(spec)
	for _, fl := range f.Fields {
		if fl.Kind == catalog.FieldInteger && !fl.Immutable && fl.Min != nil && fl.Max != nil && *fl.Max > *fl.Min {
			if fmt.Sprint(m[fl.Wire]) == fmt.Sprint(*fl.Min) {
				m[fl.Wire] = *fl.Max
			} else {
				m[fl.Wire] = *fl.Min
			}
			return m
		}
	}
	t.Skipf("%s has no mutable bounded integer field", f.Ref)
	return nil
}
