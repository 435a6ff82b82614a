package takoform

import (
	"net/http"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// staleUpdate is the refusal of an update of queue orders (uid <uid>) planned from
// generation 1 while the host holds generation 2.
var staleUpdate = errorDiag("Failed to update AtLeastOnceQueue orders",
	"The host refused the update; the state keeps the prior values.",
	"",
	`Host: fence 1 is stale: AtLeastOnceQueue "orders" in space "dev" is at generation 2; read it again and re-plan`,
	"",
	"Resource: takoform_at_least_once_queue (dev/orders)",
	"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
	"Pointer: /spec",
	"Expected UID: <uid>",
	"Expected generation: 1",
	"Expected revision: 1",
	"Request: <req-1>",
	"Code: generation_conflict (host, HTTP 412)",
	"Retryable: no",
	"",
	"Someone else changed the resource. Refresh and apply again.")

// TestUpdateOfAStaleStateIsRefusedByTheGenerationFence: another client updated the queue
// (generation 2) after this state was written (generation 1). An update from this state,
// applied without a refresh (-refresh=false), carries the generation it was planned from, so
// the host refuses it generation_conflict and keeps the other client's change; the state is
// kept. Without the fence the update would silently overwrite that change.
func TestUpdateOfAStaleStateIsRefusedByTheGenerationFence(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	st := h.create(queueType, cfg)
	other := cfg.clone()
	other["message_retention_seconds"] = i64(120)
	pr := h.plan(queueType, other, st)
	mustNoError(t, "the other client's plan", pr.diags)
	moved, d := h.apply(queueType, other, st, pr.planned)
	mustNoError(t, "the other client's update", d)
	ours := cfg.clone()
	ours["message_retention_seconds"] = i64(600)
	pr = h.plan(queueType, ours, st)
	mustNoError(t, "plan", pr.diags)
	kept, d := h.apply(queueType, ours, st, pr.planned)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), staleUpdate)
	wantKept(t, st, kept)
	now, d := h.read(queueType, moved)
	mustNoError(t, "read", d)
	if now.str(aGeneration) != "2" || !now["message_retention_seconds"].Equal(i64(120)) {
		t.Fatalf("the host no longer holds the other client's change: generation %s, retention %v", now.str(aGeneration), now["message_retention_seconds"])
	}
}

// TestUpdateWhoseResourceMovedAfterItsPrepareIsRefusedAtThePut: another client's update lands
// between this update's prepare and its PUT (the same bytes, sent first under another
// Idempotency-Key). The PUT carries the generation it was planned from, so the host refuses it
// generation_conflict and the state is kept; without that fence the PUT would write over the
// other client's update.
func TestUpdateWhoseResourceMovedAfterItsPrepareIsRefusedAtThePut(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	st := h.create(queueType, cfg)
	hostInFront(t, h, putFirstFromAnotherClient(t, h, http.StatusOK))
	ours := cfg.clone()
	ours["message_retention_seconds"] = i64(600)
	pr := h.plan(queueType, ours, st)
	mustNoError(t, "plan", pr.diags)
	kept, d := h.apply(queueType, ours, st, pr.planned)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), staleUpdate)
	wantKept(t, st, kept)
}
