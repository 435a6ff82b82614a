package takoform

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestCreateWhoseOperationFinishesWhilePolledWritesItsResult: the host accepts a
// create (202) and finishes its Operation while the provider polls it; the create
// writes the resource of the Operation's result, as if the host had answered 201.
func TestCreateWhoseOperationFinishesWhilePolledWritesItsResult(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, d := applyWhileItsOperationEnds(t, h, values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("20s")}, nil,
		func(id string) error { _, err := h.sim.Admin.Complete(id); return err })
	mustNoError(t, "create", d)
	if len(d) != 0 {
		t.Errorf("a create whose operation finished said:\n%s", dump(d))
	}
	if st == nil || !strings.HasPrefix(st.str(aUID), "u-") || st.str(aGeneration) != "1" || st.known(aPendingOp) || !st["message_retention_seconds"].Equal(i64(60)) {
		t.Fatalf("the state of the finished create: %v", st)
	}
	rd, d := h.read(queueType, st)
	mustNoError(t, "read", d)
	if rd.str(aUID) != st.str(aUID) {
		t.Errorf("the host holds uid %q, the state %q", rd.str(aUID), st.str(aUID))
	}
}

// TestCreateWhoseOperationResultIsAnotherResourceIsUnfinished: the finished
// Operation's result names another resource than the one created (a host in front of
// hostsim rewrites it). The provider does not take it for its own: the create is
// recorded accepted-unfinished with the operation, and the warning says why.
func TestCreateWhoseOperationResultIsAnotherResourceIsUnfinished(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	var honest atomic.Bool
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if honest.Load() || r.Method != http.MethodGet || !strings.Contains(r.URL.Path, "/operations/") {
			return reply{}, false
		}
		rep := fwd()
		rep.body = editJSON(t, rep.body, func(op map[string]any) {
			if res, _ := op["result"].(map[string]any); res != nil {
				res["resource"].(map[string]any)["metadata"].(map[string]any)["name"] = "payments"
			}
		})
		return rep, true
	})
	st, d := applyWhileItsOperationEnds(t, h, values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("20s")}, nil,
		func(id string) error { _, err := h.sim.Admin.Complete(id); return err })
	if st == nil || !strings.HasPrefix(st.str(aUID), "u-") || !strings.HasPrefix(st.str(aPendingOp), "op_") || st.known(aGeneration) {
		t.Fatalf("the unfinished state: %v; want the operation and its target's uid, no generation", st)
	}
	wantDiags(t, named(d, "<target uid>", st.str(aUID)),
		queueCreateUnfinished(`the host's representation is not usable: the answer names resource "payments", not "orders"`))
	// once the host answers honestly, the next refresh finishes the resource in place
	honest.Store(true)
	rd, d := h.read(queueType, st)
	mustNoError(t, "refresh", d)
	if rd == nil || rd.str(aUID) != st.str(aUID) || rd.known(aPendingOp) || rd.str(aGeneration) != "1" {
		t.Fatalf("the refresh after the honest answer: %v", rd)
	}
}

// TestDeleteWhoseOperationFailsKeepsTheState: the host accepts a delete (202) and its
// Operation ends with an error; the delete fails naming it and the state stays.
func TestDeleteWhoseOperationFailsKeepsTheState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(60), aDeleteTimeout: s("20s")})
	wait := whileItsOperationEnds(t, h, func(id string) error { _, err := h.sim.Admin.Fail(id, "backend_unavailable"); return err })
	kept, d := h.apply(queueType, nil, st, nil)
	wait()
	wantDiags(t, d, errorDiag("Failed to delete AtLeastOnceQueue orders",
		"The host refused the delete; the resource stays in state.",
		"",
		"Host: operation <op-1> was failed with backend_unavailable through the hostsim admin API",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /metadata",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Operation: <op-1>",
		"Code: backend_unavailable (host, HTTP 503)",
		"Retryable: yes",
		"",
		"This is transient and the provider already retried. Apply again later."))
	wantKept(t, st, kept)
}

// TestCreateWhosePollFailsOnTheHostsStoreIsUnfinished: on an async host the
// poll that would commit the create fails on the host's store (store.read-fail
// on its read of the name's holder). That is the host failing, not the
// operation: the poll answers 500, the create is recorded accepted-unfinished
// with its operation, and the next refresh polls again and finishes it. (A host
// that ended the operation Failed there would make the create an error that
// says nothing was created.)
func TestCreateWhosePollFailsOnTheHostsStoreIsUnfinished(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{Profile: "async"})
	if err := h.sim.Admin.ArmFault("store.read-fail=2,route=operation,count=1"); err != nil {
		t.Fatal(err)
	}
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(60), aCreateTimeout: s("20s")}
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	if st == nil || !strings.HasPrefix(st.str(aPendingOp), "op_") || st.known(aGeneration) {
		t.Fatalf("the unfinished state: %v; want the operation, no generation", st)
	}
	wantDiags(t, d, warningDiag("AtLeastOnceQueue orders was accepted by the host but has not finished",
		"The host accepted the create but its outcome was not known before the create finished (host refused with internal_error (HTTP 500): hostsim failed as an armed fault asked: read 2 inside this request's writes failed: the store.read-fail fault injected a storage error (nothing of that write is stored)). The state records the operation in pending_operation_id with every output null; the next plan or apply picks it up and finishes the resource in place.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Operation: <op-1>",
		"Code: accepted-without-representation (host)",
		"Retryable: no",
		"",
		"Run tofu apply again (or tofu refresh) once the host has finished; the resource is not re-created."))
	if n, err := h.sim.Admin.Counters(); err != nil || n.Fired["store.read-fail=2"] != 1 {
		t.Fatalf("store.read-fail=2 fired %v times (%v), want once", n.Fired, err)
	}
	rd, d := h.read(queueType, st)
	mustNoError(t, "refresh", d)
	if rd == nil || !strings.HasPrefix(rd.str(aUID), "u-") || rd.known(aPendingOp) || rd.str(aGeneration) != "1" {
		t.Fatalf("the refresh after the failed poll did not finish the create: %v", rd)
	}
}
