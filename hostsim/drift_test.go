package hostsim_test

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// externalDelete removes a resource out of band (the external-change probe skips the pin scan).
func (w *world) externalDelete(kind, name string) {
	w.t.Helper()
	f := w.f(kind)
	w.c.do("DELETE", resPath(f, name)+exactQuery(f, w.space), map[string]string{"Takoform-Expected-Generation": "1",
		"Idempotency-Key": newKey(), "Takoform-Conformance-Probe": "external-change"}, nil).status(204)
}

func wantReady(t *testing.T, got readyCond, status, reason, hostReason, gen, rev string) {
	t.Helper()
	if got.Status != status || got.Reason != reason || got.HostReason != hostReason || got.Generation != gen || got.Revision != rev {
		t.Fatalf("Ready %s/%s (%s) at generation %s revision %s, want %s/%s (%s) at generation %s revision %s: %s",
			got.Status, got.Reason, got.HostReason, got.Generation, got.Revision, status, reason, hostReason, gen, rev, got.Message)
	}
}

// Drift is rendered on read, moves the revision once per change of rendering
// (never the generation), and an accepted re-apply re-pins and clears it.
func TestDriftAndRepin(t *testing.T) {
	_, w := deployedWorld(t, hostsim.Config{ConformanceProbes: true})
	qc := consumerSpec(w, "api", "events", "dead")
	w.create(kConsumer, "qc", qc).status(201)
	wantReady(t, readyIn(t, w.read(kConsumer, "qc")), "True", "Available", "", "1", "1")

	dead1, events1 := uidOf(t, w.read(kQueue, "dead")), uidOf(t, w.read(kQueue, "events"))
	w.externalDelete(kQueue, "dead")
	missing := readyIn(t, w.read(kConsumer, "qc"))
	// The hostReason names the relation pointer and both uids (docs/protocol.md#relations).
	deadGone := "relation-target-missing /deadLetterQueue pinned " + dead1 + " now none"
	wantReady(t, missing, "False", "DependencyMissing", deadGone, "1", "2")
	if !contains([]byte(missing.Message), "/deadLetterQueue") || !contains([]byte(missing.Message), "no longer exists") {
		t.Fatalf("the message must name the drifted reference: %s", missing.Message)
	}
	wantReady(t, readyIn(t, w.read(kConsumer, "qc")), "False", "DependencyMissing", deadGone, "1", "2")

	w.settled(kQueue, "dead", fixture(t, w.f(kQueue)))
	dead2 := uidOf(t, w.read(kQueue, "dead"))
	deadMoved := "relation-target-replaced /deadLetterQueue pinned " + dead1 + " now " + dead2
	wantReady(t, readyIn(t, w.read(kConsumer, "qc")), "False", "ExternalChange", deadMoved, "1", "3")

	// Both at once: DependencyMissing wins and the message lists both.
	w.externalDelete(kQueue, "events")
	both := readyIn(t, w.read(kConsumer, "qc"))
	wantReady(t, both, "False", "DependencyMissing", "relation-target-missing /queue pinned "+events1+" now none", "1", "4")
	if !contains([]byte(both.Message), "/queue") || !contains([]byte(both.Message), "/deadLetterQueue") {
		t.Fatalf("the message must list every drifted reference: %s", both.Message)
	}
	w.settled(kQueue, "events", fixture(t, w.f(kQueue)))
	// Both replaced: the first drifted relation in pin order is named, the message lists both.
	moved := readyIn(t, w.read(kConsumer, "qc"))
	wantReady(t, moved, "False", "ExternalChange", deadMoved, "1", "5")
	if !contains([]byte(moved.Message), "/queue: pinned") || !contains([]byte(moved.Message), "is now uid "+uidOf(t, w.read(kQueue, "events"))) {
		t.Fatalf("the message must list every drifted reference: %s", moved.Message)
	}

	// A spec-identical re-apply re-pins: the drift clears with one revision, then nothing moves.
	r := w.c.update(w.f(kConsumer), "qc", "prod", qc, 1).status(200)
	wantReady(t, readyIn(t, r), "True", "Available", "", "1", "6")
	r = w.c.update(w.f(kConsumer), "qc", "prod", qc, 1).status(200)
	wantReady(t, readyIn(t, r), "True", "Available", "", "1", "6")
	// The re-pinned target is protected again.
	w.del(kQueue, "dead", 1).refused("dependency_in_use", 409)
}

// uidOf is metadata.uid of a 200 answer.
func uidOf(t testing.TB, r *reply) string {
	t.Helper()
	uid, _, _ := meta(t, r.status(200))
	return uid
}
