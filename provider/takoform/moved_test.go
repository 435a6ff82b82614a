package takoform

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
)

// movedElsewhere is a queue created under 0.1.0 (st, the state this client holds) that
// another client has since moved to 0.2.0 with the declared transition; moved is the
// configuration carrying the marker.
func movedElsewhere(t *testing.T, h *harness) (st, moved values) {
	t.Helper()
	requireTransitions(t, h)
	st, moved = oldQueue(t, h)
	_, d := applyTransition(t, h, moved, st)
	mustNoError(t, "the other client's transition", d)
	return st, moved
}

// movedQueue is the report about queue dev/orders (uid <uid>) found at generation gen under
// definition version to instead of its recorded from: then says what followed, in the words
// of its from and to; repair is the remedy, in those words too.
func movedQueue(sev func(string, ...string) diagnostic, from, to, gen, then, repair string) diagnostic {
	versions := strings.NewReplacer("{from}", from, "{to}", to)
	return sev("AtLeastOnceQueue dev/orders was moved to definition version "+to+" outside this configuration",
		"The host no longer answers this resource under its recorded definition version "+from+"; it answers the same object (the uid the state records) under "+to+". "+versions.Replace(then),
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@"+to+" schema=<sha256-1>",
		"Pointer: /metadata",
		"Expected UID: <uid>",
		"Current generation: "+gen,
		"Code: takoform.provider/form-moved-outside-configuration",
		"Retryable: no",
		"",
		versions.Replace(repair))
}

const (
	movedRefreshed     = "The state now records {to} and the spec the host serves there."
	movedNotDeleted    = "The delete was sent under {from}, so it removed nothing, and the state was kept."
	movedRefreshRepair = "If this configuration asks for {to} (by form_definition_version, by the transition marker that leads there, or by leaving the version unset when it is the newest), the next apply converges without a request. If it still asks for {from}, set form_definition_version to {to}: plan refuses a move back that no transition declares."
)

// TestRefreshFollowsAResourceMovedToAnotherVersionOutsideTheConfiguration: the host answers a
// resource only under the ref it records, so a queue moved to 0.2.0 behind this state's back
// is not found under 0.1.0. Refresh finds the same uid under 0.2.0 and adopts it with a
// warning; before, it dropped the resource from state and the next apply tried to create a
// name the host holds. A configuration still asking for 0.1.0 is refused at plan; one with
// the marker converges without a request.
func TestRefreshFollowsAResourceMovedToAnotherVersionOutsideTheConfiguration(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, moved := movedElsewhere(t, h)
	rd, d := h.read(queueType, st)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), movedQueue(warningDiag, "0.1.0", "0.2.0", "2", movedRefreshed, movedRefreshRepair))
	if rd == nil {
		t.Fatal("the refresh removed the moved resource from state")
	}
	if rd.str(aFormDefVersion) != "0.2.0" || rd.str(aUID) != st.str(aUID) || rd.str(aGeneration) != "2" {
		t.Fatalf("after refresh: version=%q uid=%q generation=%q", rd.str(aFormDefVersion), rd.str(aUID), rd.str(aGeneration))
	}
	old := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}
	pr := h.plan(queueType, old, rd)
	wantDiags(t, pr.diags, errorDiag("Changing the definition version of AtLeastOnceQueue orders needs a Form transition",
		"The resource is recorded under AtLeastOnceQueue@0.2.0; moving it to 0.1.0 never happens by editing this attribute alone. No Form transition is declared for this pair.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Code: takoform.provider/definition-version-change-needs-transition",
		"Retryable: no",
		"",
		"No Form transition moves this resource there: set form_definition_version back to \"0.2.0\" (or remove it), or replace the resource under a new name.").at("form_definition_version"))
	pr = h.plan(queueType, moved, rd)
	mustNoError(t, "plan with the marker", pr.diags)
	req0, mut0 := counters(t, h)
	up, d := h.apply(queueType, moved, rd, pr.planned)
	mustNoError(t, "apply with the marker", d)
	if req, mut := counters(t, h); req != req0 || mut != mut0 {
		t.Errorf("the apply sent %d requests (%d mutations); the resource is already where the marker leads", req-req0, mut-mut0)
	}
	pr = h.plan(queueType, moved, up)
	mustNoError(t, "plan after", pr.diags)
	wantPlannedUnchanged(t, "the plan after", up, pr.planned)
}

// TestRefreshKeepsTheStateWhenAnotherIncarnationHoldsTheNameUnderAnotherVersion: the queue was
// deleted and re-created under 0.2.0 outside this configuration. The uid rule holds across
// versions: the refresh fails naming both uids and both versions, and the state is kept.
func TestRefreshKeepsTheStateWhenAnotherIncarnationHoldsTheNameUnderAnotherVersion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	old, _ := oldQueue(t, h)
	_, d := h.apply(queueType, nil, old, nil)
	mustNoError(t, "delete", d)
	fresh := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	if fresh.str(aFormDefVersion) != "0.2.0" {
		t.Fatalf("re-created under %q, want 0.2.0", fresh.str(aFormDefVersion))
	}
	st, d := h.read(queueType, old)
	wantDiags(t, named(d, "<state's uid>", old.str(aUID), "<host's uid>", fresh.str(aUID)),
		queueUIDMismatch("The host no longer answers this name under its recorded definition version 0.1.0; under 0.2.0 it serves another incarnation (deleted and re-created outside this configuration). The state was kept exactly as it was: it is neither re-bound to the new object nor removed.", "0.2.0", "<state's uid>", "<host's uid>", "1", "1"))
	wantKept(t, old, st)
}

// TestRefreshWhoseProbeOfAnotherVersionFailsKeepsTheState: the resource is not found under its
// recorded ref and the read under the other carried ref fails. Nothing is known, so nothing is
// removed: the refresh fails naming the version it could not read.
func TestRefreshWhoseProbeOfAnotherVersionFailsKeepsTheState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, _ := movedElsewhere(t, h)
	var recorded, probes atomic.Int32
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/orders") {
			return reply{}, false
		}
		if r.URL.Query().Get("definitionVersion") == "0.1.0" {
			recorded.Add(1)
			return reply{}, false
		}
		probes.Add(1)
		return serverError(t), true
	})
	rd, d := h.read(queueType, st)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), serverErrorDiag("Failed to read AtLeastOnceQueue orders", "The host no longer answers this resource under its recorded definition version 0.1.0, and it could not be read under 0.2.0 to learn whether it was moved there; the state was left unchanged.",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /metadata",
		"Expected UID: <uid>"))
	if recorded.Load() != 1 || probes.Load() != 1 {
		t.Errorf("reads under 0.1.0 = %d and under 0.2.0 = %d, want one each", recorded.Load(), probes.Load())
	}
	wantKept(t, st, rd)
}

// TestDestroyWithoutRefreshOfAMovedResourceKeepsTheState: destroy -refresh=false sends the
// delete under the recorded 0.1.0; the host answers resource_not_found. The resource lives on
// under 0.2.0, so the delete removed nothing: it fails and the state is kept (before, the
// state was dropped and the queue lived on, tracked by nothing).
func TestDestroyWithoutRefreshOfAMovedResourceKeepsTheState(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, _ := movedElsewhere(t, h)
	// the same state as an accepted create leaves it, with the uid and no generation: the
	// delete first reads the generation under 0.1.0
	undisclosed := st.clone()
	undisclosed[aGeneration] = types.StringNull()
	for _, prior := range []values{st, undisclosed} {
		_, mut0 := counters(t, h)
		kept, d := h.apply(queueType, nil, prior, nil)
		wantDiags(t, named(d, "<uid>", st.str(aUID)), movedQueue(errorDiag, "0.1.0", "0.2.0", "2", movedNotDeleted,
			"Refresh first (tofu apply -refresh-only, or a destroy without -refresh=false) so the state records 0.2.0, then destroy again."))
		wantKept(t, prior, kept)
		if _, mut := counters(t, h); mut != mut0 {
			t.Errorf("the delete mutated the host %d times", mut-mut0)
		}
	}
	rd, _ := h.read(queueType, st)
	if rd == nil || rd.str(aFormDefVersion) != "0.2.0" {
		t.Fatalf("the queue is no longer on the host under 0.2.0: %v", rd)
	}
	_, d := h.apply(queueType, nil, rd, nil)
	mustNoError(t, "destroy after the refresh", d)
	if gone, _ := h.read(queueType, rd); gone != nil {
		t.Fatalf("the destroy after the refresh left the queue: %v", gone)
	}
}

// TestRefreshFollowsAResourceBackToAnOlderVersion: the host was restored from a backup taken
// before the transition, so it holds the queue under 0.1.0 again, same uid, while this state
// records 0.2.0. The probe covers every other carried version, the oldest included.
func TestRefreshFollowsAResourceBackToAnOlderVersion(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, _ := oldQueue(t, h)
	newer := h.kind(queueType).model.newest.Ref
	restored := st.clone()
	h.kind(queueType).model.setRef(restored, newer)
	rd, d := h.read(queueType, restored)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), movedQueue(warningDiag, "0.2.0", "0.1.0", "1", movedRefreshed, movedRefreshRepair))
	if rd == nil || rd.str(aFormDefVersion) != "0.1.0" || rd.str(aUID) != st.str(aUID) {
		t.Fatalf("the refresh did not follow the queue to 0.1.0: %v", rd)
	}
}

// readsOf counts the reads of orders through a host in front of h, by definition version.
func readsOf(t *testing.T, h *harness) func(version string) int32 {
	t.Helper()
	var mu sync.Mutex
	n := map[string]int32{}
	hostInFront(t, h, func(r *http.Request, fwd func() reply) (reply, bool) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/orders") {
			mu.Lock()
			n[r.URL.Query().Get("definitionVersion")]++
			mu.Unlock()
		}
		return reply{}, false
	})
	return func(version string) int32 {
		mu.Lock()
		defer mu.Unlock()
		return n[version]
	}
}

// TestImportNamingAnExactRefAsksForThatRefOnly: an import that names 0.1.0 exactly records no
// uid, so its refresh never looks under 0.2.0, where the queue lives: nothing is imported, and
// the queue stays on the host.
func TestImportNamingAnExactRefAsksForThatRefOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	live := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(3600)})
	old := h.kind(queueType).model.kind.Versions[0].Ref
	if old.DefinitionVersion != "0.1.0" || live.str(aFormDefVersion) != "0.2.0" {
		t.Fatalf("want the queue under 0.2.0 and the import under 0.1.0, got %s and %s", live.str(aFormDefVersion), old.DefinitionVersion)
	}
	imp, d := h.importID(queueType, `{"space":"dev","name":"orders","apiVersion":"`+old.APIVersion+`","kind":"AtLeastOnceQueue","definitionVersion":"0.1.0","schemaDigest":"`+old.SchemaDigest+`"}`)
	mustNoError(t, "import", d)
	rd, d := h.read(queueType, imp)
	wantDiags(t, d)
	if rd != nil {
		t.Fatalf("the import of 0.1.0 adopted the queue that lives under 0.2.0: %v", rd)
	}
	if still, _ := h.read(queueType, live); still == nil || still.str(aUID) != live.str(aUID) {
		t.Fatalf("the queue is gone from the host: %v", still)
	}
}

// TestRefreshOnAHostWithoutTheOtherVersionRemovesADeletedResource: a host that does not install
// 0.2.0 answers a read under it form_unknown, which says no resource lives there either: the
// deleted queue leaves the state.
func TestRefreshOnAHostWithoutTheOtherVersionRemovesADeletedResource(t *testing.T) {
	t.Parallel()
	h := newHarness(t, queuesOldOnly(t))
	st := createOldQueue(h)
	_, d := h.apply(queueType, nil, st, nil)
	mustNoError(t, "delete", d)
	reads := readsOf(t, h)
	rd, d := h.read(queueType, st)
	wantDiags(t, d)
	if rd != nil {
		t.Fatalf("the deleted queue stayed in state: %v", rd)
	}
	if reads("0.1.0") != 1 || reads("0.2.0") != 1 {
		t.Errorf("reads under 0.1.0 = %d and under 0.2.0 = %d, want one each", reads("0.1.0"), reads("0.2.0"))
	}
}
