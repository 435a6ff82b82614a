package backend

import (
	"context"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// backendStore is a private in-memory store holding the backend's tables.
func backendStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.Extend(Schema, Tables...); err != nil {
		t.Fatal(err)
	}
	return st
}

func write(t *testing.T, st *store.Store, fn func(q store.Q) error) {
	t.Helper()
	if err := st.Write(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// Before the backend has seen a resource, its identity comes from the resource:
// the nativeId it claims, else its uid. Once the backend converted the object,
// the identity is the object's, whatever the resource says afterwards: a
// transition keeps the native identity.
func TestIdentityIsTheResourcesUntilTheBackendKeepsItsOwn(t *testing.T) {
	st := backendStore(t)
	res := &store.Resource{UID: "u1", Kind: "EdgeKVNamespace"}
	claimed := &store.Resource{UID: "u2", Kind: "EdgeKVNamespace", NativeID: "ns-42"}
	write(t, st, func(q store.Q) error {
		for _, c := range []struct {
			r       *store.Resource
			typ, id string
		}{{res, "hostsim.edgekvnamespace", "native-u1"}, {claimed, "hostsim.edgekvnamespace", "ns-42"}} {
			typ, id, err := Identity(q, c.r)
			if err != nil || typ != c.typ || id != c.id {
				t.Errorf("Identity(%s) = %q, %q, %v; want %q, %q", c.r.UID, typ, id, err, c.typ, c.id)
			}
		}
		if err := Apply(q, Op{OperationID: "op1", Tenant: "t", UID: "u1", DesiredSpecDigest: "sha256:d1"}, res, "v2", "", 1); err != nil {
			return err
		}
		moved := *res
		moved.Kind, moved.NativeID = "SQLiteDatabase", "other"
		typ, id, err := Identity(q, &moved)
		if err != nil || typ != "hostsim.edgekvnamespace" || id != "native-u1" {
			t.Errorf("after the backend converted u1, Identity = %q, %q, %v; want the object's own", typ, id, err)
		}
		return nil
	})
}

// A committed Apply converts the object and records, in the same transaction,
// the spec it observed and the digest of the identity it kept; a rejection
// records its code and converts nothing; an operation is recorded once.
func TestApplyRecordsEvidenceOnce(t *testing.T) {
	st := backendStore(t)
	res := &store.Resource{UID: "u1", Kind: "EdgeKVNamespace"}
	write(t, st, func(q store.Q) error {
		if ev, err := ReadEvidence(q, "op1"); err != nil || *ev != (Evidence{}) {
			t.Errorf("evidence before any call: %+v, %v; want none", ev, err)
		}
		if err := Apply(q, Op{OperationID: "op1", Tenant: "t", UID: "u1", DesiredSpecDigest: "sha256:d1"}, res, "v2", "", 1); err != nil {
			return err
		}
		if err := Apply(q, Op{OperationID: "op2", Tenant: "t", UID: "u9", DesiredSpecDigest: "sha256:d9"}, &store.Resource{UID: "u9", Kind: "K"}, "v2", "conflict", 2); err != nil {
			return err
		}
		if err := Apply(q, Op{OperationID: "op1", Tenant: "t", UID: "u1", DesiredSpecDigest: "sha256:d1"}, res, "v2", "", 3); err == nil {
			t.Error("a second Apply of op1 was recorded: the ledger must hold an operation once")
		}
		return nil
	})
	var objs []Object
	var recs []Record
	err := st.Read(context.Background(), func(q store.Q) error {
		want, _ := IdentityDigest("hostsim.edgekvnamespace", "native-u1")
		if ev, err := ReadEvidence(q, "op1"); err != nil || *ev != (Evidence{Outcome: "committed", ObservedSpecDigest: "sha256:d1", NativeIdentityDigest: want}) {
			t.Errorf("op1 evidence: %+v, %v", ev, err)
		}
		if ev, err := ReadEvidence(q, "op2"); err != nil || *ev != (Evidence{Outcome: "rejected", FailureCode: "conflict"}) {
			t.Errorf("op2 evidence: %+v, %v", ev, err)
		}
		var err error
		objs, recs, err = State(q)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := IdentityDigest("hostsim.edgekvnamespace", "native-u1")
	if len(objs) != 1 || objs[0] != (Object{UID: "u1", NativeIdentityDigest: want, DefinitionVersion: "v2", SpecDigest: "sha256:d1"}) {
		t.Errorf("objects: %+v; want only u1, converted to v2 (the rejection converts nothing)", objs)
	}
	if len(recs) != 2 || recs[0].OperationID != "op1" || recs[0].Outcome != "committed" || recs[1] != (Record{OperationID: "op2", UID: "u9", Outcome: "rejected", FailureCode: "conflict"}) {
		t.Errorf("ledger: %+v", recs)
	}
}
