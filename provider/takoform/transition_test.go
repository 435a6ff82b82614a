package takoform

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/provider/internal/client"
)

const marker = "at-least-once-queue-0.1-to-0.2"

// requireTransitions fails when the hostsim build has no transition service wired
// (its readback then answers a bare resource_not_found, not the ledger's
// form_transition_operation_not_found): a regressed host must not pass as a skip.
func requireTransitions(t *testing.T, h *harness) {
	t.Helper()
	c, err := client.New(client.Config{Endpoint: h.sim.URL, Token: "sim-primary"})
	if err != nil {
		t.Fatal(err)
	}
	ref := h.kind(queueType).model.newest.Ref
	_, err = c.TransitionReadback(context.Background(), &client.TxRequest{OperationID: "formtx_" + strings.Repeat("0", 64),
		To: client.TxForm{FormRef: ref}, Name: "probe", Space: "dev"})
	// a regressed hostsim fails these tests rather than letting them skip
	if hErr, ok := client.AsHost(err); !ok || hErr.Env.HostCode != "form_transition_operation_not_found" {
		t.Fatalf("hostsim must serve Form transition readback (answer form_transition_operation_not_found for an unknown operation); got %v", err)
	}
}

func oldQueue(t *testing.T, h *harness) (values, values) {
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.1.0")}
	st := h.create(queueType, cfg)
	moved := values{aName: s("orders"), "message_retention_seconds": i64(3600), aFormTransition: s(marker)}
	return st, moved
}

func TestTransitionCommitsInPlace(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	st, cfg := oldQueue(t, h)
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if len(pr.replace) != 0 || pr.planned.str(aFormDefVersion) != "0.2.0" || !pr.planned[aGeneration].IsUnknown() {
		t.Fatalf("plan: replace=%v version=%q generation=%v", pr.replace, pr.planned.str(aFormDefVersion), pr.planned[aGeneration])
	}
	up, d := h.apply(queueType, cfg, st, pr.planned)
	mustNoError(t, "apply", d)
	if up.str(aFormDefVersion) != "0.2.0" || up.str(aGeneration) != "2" || up.str(aUID) != st.str(aUID) || up.str(aPendingOp) != "" {
		t.Fatalf("after commit: version=%q gen=%q uid=%q pending=%q", up.str(aFormDefVersion), up.str(aGeneration), up.str(aUID), up.str(aPendingOp))
	}
	if !up["max_message_bytes"].Equal(types.Int64Value(127000)) {
		t.Errorf("max_message_bytes = %v", up["max_message_bytes"])
	}
	mustKeepTransition(t, h, false) // the committed transition's kept request goes with it
	rd, d := h.read(queueType, up)
	mustNoError(t, "read", d)
	pr = h.plan(queueType, cfg, rd)
	mustNoError(t, "second plan", pr.diags)
	wantPlannedUnchanged(t, "second plan", rd, pr.planned)
}

func TestTransitionRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	bad := cfg.clone()
	bad["message_retention_seconds"] = i64(7200)
	wantDiags(t, h.plan(queueType, bad, st).diags, withChanges("message_retention_seconds"))
	bad = cfg.clone()
	bad[aFormDefVersion] = s("0.1.0")
	wantDiags(t, h.plan(queueType, bad, st).diags, errorDiag("AtLeastOnceQueue orders is on AtLeastOnceQueue@0.1.0, not on the start of at-least-once-queue-0.1-to-0.2",
		`form_definition_version "0.1.0" disagrees with the marker, which moves to 0.2.0. No request was sent.`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/form-transition-not-applicable",
		"Retryable: no",
		"",
		"Remove form_transition, or set form_definition_version to the marker's target version (or leave it unset).").at("form_transition"))
	before, _ := counters(t, h)
	newer := h.create(queueType, values{aName: s("fresh"), "message_retention_seconds": i64(60)})
	if pr := h.plan(queueType, values{aName: s("fresh"), "message_retention_seconds": i64(60), aFormTransition: s(marker)}, newer); hasError(pr.diags) {
		t.Errorf("a marker on a resource already on `to` must plan cleanly:\n%s", dump(pr.diags))
	}
	_ = before
}

func TestTransitionRejectedKeepsTheOldRef(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	st, cfg := oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("transition.reject,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	up, d := h.apply(queueType, cfg, st, pr.planned)
	wantDiags(t, d, transitionRejected)
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" {
		t.Errorf("after rejection: version=%q pending=%q", up.str(aFormDefVersion), up.str(aPendingOp))
	}
	mustKeepTransition(t, h, false) // the rejected operation is over: its request is not kept
	rd, d := h.read(queueType, up)
	mustNoError(t, "refresh adopts the moved revision", d)
	pr = h.plan(queueType, cfg, rd)
	mustNoError(t, "plan again", pr.diags)
	again, d := h.apply(queueType, cfg, rd, pr.planned)
	mustNoError(t, "a later apply transitions under a new operation id", d)
	if again.str(aFormDefVersion) != "0.2.0" {
		t.Errorf("second attempt: version=%q", again.str(aFormDefVersion))
	}
}

func TestTransitionCrashPointsConverge(t *testing.T) {
	t.Parallel()
	for _, point := range []string{"C", "D", "E"} {
		t.Run(point, func(t *testing.T) {
			h := newHarness(t, hostsim.Config{})
			requireTransitions(t, h)
			st, cfg := oldQueue(t, h)
			if err := h.sim.Admin.ArmFault("transition.crash=" + point + ",kind=AtLeastOnceQueue,count=1"); err != nil {
				t.Fatal(err)
			}
			pr := h.plan(queueType, cfg, st)
			mustNoError(t, "plan", pr.diags)
			up, d := h.apply(queueType, cfg, st, pr.planned)
			mustNoError(t, "apply converges through its single readback", d)
			if up.str(aFormDefVersion) != "0.2.0" || up.str(aGeneration) != "2" {
				t.Errorf("crash %s: version=%q gen=%q", point, up.str(aFormDefVersion), up.str(aGeneration))
			}
		})
	}
}

func TestTransitionCrashAResumesOnTheNextApply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	st, cfg, up := crashedAtA(t, h)
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp)[:7] != "formtx_" {
		t.Fatalf("indeterminate state: version=%q pending=%q", up.str(aFormDefVersion), up.str(aPendingOp))
	}
	// next run: refresh consults the readback (still prepared, not dispatched) and keeps state
	rd, d := h.read(queueType, up)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), transitionInProgress)
	if rd.str(aPendingOp) != up.str(aPendingOp) || rd.str(aRevision) != up.str(aRevision) {
		t.Fatalf("refresh must keep the state: pending %q revision %q", rd.str(aPendingOp), rd.str(aRevision))
	}
	// the next apply re-sends the kept bytes and commits
	pr := h.plan(queueType, cfg, rd)
	mustNoError(t, "plan again", pr.diags)
	done, d := h.apply(queueType, cfg, rd, pr.planned)
	mustNoError(t, "the next apply resumes the kept request", d)
	if done.str(aFormDefVersion) != "0.2.0" || done.str(aGeneration) != "2" || done.str(aUID) != st.str(aUID) || done.str(aPendingOp) != "" {
		t.Errorf("after resume: version=%q gen=%q uid=%q pending=%q", done.str(aFormDefVersion), done.str(aGeneration), done.str(aUID), done.str(aPendingOp))
	}
	mustKeepTransition(t, h, false) // the resumed request committed: it is kept no longer
	if c, _ := h.sim.Admin.Counters(); len(c.Dispatch) != 1 {
		t.Errorf("dispatch counters %v: the backend must be called for exactly one operation", c.Dispatch)
	} else {
		for op, n := range c.Dispatch {
			if n != 1 {
				t.Errorf("operation %s dispatched %d times", op, n)
			}
		}
	}
}

func TestTransitionCrashBEndsRejectedAndRetriesUnderANewID(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	st, cfg := oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("transition.crash=B,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	pr := h.plan(queueType, cfg, st)
	up, d := h.apply(queueType, cfg, st, pr.planned)
	if !hasError(d) || up.str(aFormDefVersion) != "0.1.0" {
		t.Fatalf("crash B must not move the resource:\n%s", dump(d))
	}
	var rd values
	for i := 0; i < 2; i++ { // indeterminate first when the ack deadline has not passed
		rd, d = h.read(queueType, up)
		mustNoError(t, "refresh", d)
		if rd.str(aPendingOp) == "" {
			break
		}
		up = rd
	}
	if rd.str(aPendingOp) != "" || rd.str(aFormDefVersion) != "0.1.0" || rd.str(aGeneration) != "1" {
		t.Fatalf("after the rejection: pending=%q version=%q gen=%q", rd.str(aPendingOp), rd.str(aFormDefVersion), rd.str(aGeneration))
	}
	pr = h.plan(queueType, cfg, rd)
	mustNoError(t, "plan again", pr.diags)
	done, d := h.apply(queueType, cfg, rd, pr.planned)
	mustNoError(t, "a later apply transitions under a new operation id", d)
	if done.str(aFormDefVersion) != "0.2.0" || done.str(aUID) != st.str(aUID) {
		t.Errorf("after retry: version=%q uid=%q", done.str(aFormDefVersion), done.str(aUID))
	}
}

func TestEndpointTransitionMakesPortKnown(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	requireTransitions(t, h)
	st := h.create(endpointType, endpointConfig(values{aFormDefVersion: s("0.1.0")}))
	if !st["port"].IsNull() {
		t.Fatalf("port on 0.1.0 = %v", st["port"])
	}
	cfg := endpointConfig(values{aFormTransition: s("worker-endpoint-0.1-to-0.2")})
	pr := h.plan(endpointType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if len(pr.replace) != 0 || !pr.planned["port"].IsUnknown() {
		t.Fatalf("plan: replace=%v port=%v", pr.replace, pr.planned["port"])
	}
	up, d := h.apply(endpointType, cfg, st, pr.planned)
	mustNoError(t, "apply", d)
	if !up["port"].Equal(types.Int64Value(443)) || up.str("url") != st.str("url") || up.str(aUID) != st.str(aUID) {
		t.Errorf("after the transition: port=%v url=%q uid=%q", up["port"], up.str("url"), up.str(aUID))
	}
}

// TestRenameIsPlannedUnderTheConfiguredRef: a new name replaces the resource, so the
// plan follows the configuration's ref (0.2.0, with a field only 0.2.0 declares) rather
// than refusing against the 0.1.0 ref in state; the plan is a replacement on name.
func TestRenameIsPlannedUnderTheConfiguredRef(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, _ := oldQueue(t, h)
	renamed := values{aName: s("orders-2"), "message_retention_seconds": i64(3600), aFormDefVersion: s("0.2.0"),
		"max_message_bytes": i64(65536)}
	pr := h.plan(queueType, renamed, st)
	mustNoError(t, "plan of a rename under another definition version", pr.diags)
	if got := pr.planned.str(aFormDefVersion); got != "0.2.0" {
		t.Errorf("planned form_definition_version = %q, want the configured 0.2.0", got)
	}
	if !strings.Contains(strings.Join(pr.replace, " "), aName) {
		t.Errorf("want a replacement on name; RequiresReplace = %v", pr.replace)
	}
	// without a new name the same configuration still needs a transition
	same := renamed.clone()
	same[aName] = s("orders")
	wantDiags(t, h.plan(queueType, same, st).diags, errorDiag("Changing the definition version of AtLeastOnceQueue orders needs a Form transition",
		"The resource is recorded under AtLeastOnceQueue@0.1.0; moving it to 0.2.0 never happens by editing this attribute alone. Declared marker(s) for this change: at-least-once-queue-0.1-to-0.2.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/definition-version-change-needs-transition",
		"Retryable: no",
		"",
		`Set form_transition = "at-least-once-queue-0.1-to-0.2", or set form_definition_version back to "0.1.0" (or remove it).`).at("form_definition_version"))
}

// TestUnresolvedTransitionReplansItsKeptValues: after a transition ended indeterminate
// (crash A) with max_message_bytes = 65536 in its request, a configuration that drops
// the attribute re-plans the kept 65536, so the next apply resends the same request and
// commits it; a configuration that sets another value is refused naming the attribute.
func TestUnresolvedTransitionReplansItsKeptValues(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	st, cfg := oldQueue(t, h)
	first := cfg.clone()
	first["max_message_bytes"] = i64(65536)
	if err := h.sim.Admin.ArmFault("transition.crash=A,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	pr := h.plan(queueType, first, st)
	mustNoError(t, "plan", pr.diags)
	up, d := h.apply(queueType, first, st, pr.planned)
	wantDiags(t, d, transitionIndeterminate(postDropped, "", false))
	if !strings.HasPrefix(up.str(aPendingOp), "formtx_") {
		t.Fatalf("want an unresolved transition, pending %q", up.str(aPendingOp))
	}
	other := cfg.clone()
	other["max_message_bytes"] = i64(32768)
	// a configured value other than the kept one must wait for the next apply
	wantDiags(t, h.plan(queueType, other, up).diags, withChanges("max_message_bytes"))
	pr = h.plan(queueType, cfg, up) // max_message_bytes no longer configured
	mustNoError(t, "plan without the attribute", pr.diags)
	if got := pr.planned["max_message_bytes"]; !got.Equal(i64(65536)) {
		t.Fatalf("planned max_message_bytes = %v, want the kept 65536", got)
	}
	done, d := h.apply(queueType, cfg, up, pr.planned)
	mustNoError(t, "the resumed transition", d)
	if done.str(aFormDefVersion) != "0.2.0" || !done["max_message_bytes"].Equal(i64(65536)) || done.str(aPendingOp) != "" {
		t.Errorf("after resume: version=%q max_message_bytes=%v pending=%q", done.str(aFormDefVersion), done["max_message_bytes"], done.str(aPendingOp))
	}
}

// withChanges is the plan-time refusal of a change to attr beside the queue orders'
// transition.
func withChanges(attr string) diagnostic {
	return errorDiag("Change "+attr+" in a separate apply from the Form transition",
		"A Form transition moves the resource with its current desired values; other changes must wait for the next apply.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/form-transition-with-changes",
		"Retryable: no",
		"",
		"Apply the transition first with the current values, then make the change.").at("form_transition")
}

// A kept request that the host rejects when the next apply re-sends it is over:
// the state leaves the old ref and the private state stops keeping the request.
func TestTransitionResumedAndRejectedIsKeptNoLonger(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	requireTransitions(t, h)
	_, cfg, up := crashedAtA(t, h)
	mustKeepTransition(t, h, true)
	if err := h.sim.Admin.ArmFault("transition.reject,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	again, d := applyTransition(t, h, cfg, up)
	mustBeRejected(t, again, d)
	mustKeepTransition(t, h, false)
}

// TestTransitionCommittedWithAnOutputOutsideTheContract: the host commits the
// endpoint's transition but answers with an output of another JSON type than the new
// Form declares. The transition path holds the answer to the same typed contract as a
// create (decision 0025): the write fails naming the output, which is written null,
// while the rest of the state follows what the host committed (the new ref, the same
// uid) and no transition is kept to resume.
func TestTransitionCommittedWithAnOutputOutsideTheContract(t *testing.T) {
	t.Parallel()
	h := withWorker(t, hostsim.Config{})
	requireTransitions(t, h)
	st := h.create(endpointType, endpointConfig(values{aFormDefVersion: s("0.1.0")}))
	cfg := endpointConfig(values{aFormTransition: s("worker-endpoint-0.1-to-0.2")})
	pr := h.plan(endpointType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if err := h.sim.Admin.ArmFault("outputs.wrong-type=port,kind=WorkerEndpoint"); err != nil {
		t.Fatal(err)
	}
	up, d := h.apply(endpointType, cfg, st, pr.planned)
	wantDiags(t, d, apiEdge.unusableOutput("port", `was declared integer and the host sent the string "443"`))
	if up == nil || up.str(aUID) != st.str(aUID) || up.str(aFormDefVersion) != "0.2.0" || !up["port"].IsNull() {
		t.Fatalf("after the committed transition: %v, want uid %s, version 0.2.0 and port null", up, st.str(aUID))
	}
	mustKeepTransition(t, h, false)
}
