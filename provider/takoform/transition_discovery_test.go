package takoform

import (
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestTransitionOnAHostWithoutTransitionsIsRefusedAtPlan: a host whose discovery does
// not advertise resource_form_transition refuses the marker at plan, at the
// attribute, with nothing sent.
func TestTransitionOnAHostWithoutTransitionsIsRefusedAtPlan(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("discovery.omit-feature=resource_form_transition"); err != nil {
		t.Fatal(err)
	}
	capReconfigure(t, h) // a new provider process reads discovery again
	pr := h.plan(queueType, cfg, st)
	wantDiags(t, pr.diags, errorDiag("Host does not offer the Form transition of AtLeastOnceQueue orders",
		"Discovery does not advertise resource_form_transition.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/host-does-not-support-transition",
		"Retryable: no",
		"",
		"Use a host that offers Form transitions, or remove form_transition to stay on 0.1.0.").at("form_transition"))
}

// TestTransitionOnAHostThatStoppedOfferingTransitionsSendsNothing: planned against a
// host that offered transitions, applied (a new process) after it stopped: the apply
// refuses before any transition request, and the state stays on 0.1.0.
func TestTransitionOnAHostThatStoppedOfferingTransitionsSendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if err := h.sim.Admin.ArmFault("discovery.omit-feature=resource_form_transition"); err != nil {
		t.Fatal(err)
	}
	seen := transitionHost(t, h, nil)
	up, d := h.apply(queueType, cfg, st, pr.planned)
	wantDiags(t, named(d, "<uid>", st.str(aUID)), errorDiag("Host does not offer the Form transition of AtLeastOnceQueue orders",
		"Discovery does not advertise resource_form_transition; nothing was sent.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Expected UID: <uid>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Operation: <formtx-1>",
		"Code: takoform.provider/host-does-not-support-transition",
		"Retryable: no",
		"",
		"Use a host that offers Form transitions, or remove form_transition to stay on 0.1.0."))
	if seen("GET")+seen("POST") != 0 {
		t.Errorf("%d transition requests were sent", seen("GET")+seen("POST"))
	}
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" {
		t.Errorf("state after the refusal: version=%q pending=%q", up.str(aFormDefVersion), up.str(aPendingOp))
	}
}

// TestTransitionPlannedAgainstAnUnreachableHostIsAWarning: when discovery cannot be
// read, the plan cannot tell whether the host offers transitions: it warns and plans
// the transition; apply checks.
func TestTransitionPlannedAgainstAnUnreachableHostIsAWarning(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	if ds := h.configure(map[string]string{"endpoint": "http://127.0.0.1:1", "token": "sim-primary", "space": "dev"}); hasError(ds) {
		t.Fatal(dump(ds))
	}
	pr := h.plan(queueType, cfg, st)
	const unreachable = "No host answered at http://127.0.0.1:1. Check the endpoint (endpoint or TAKOFORM_ENDPOINT), that the host is running and that this machine can reach it, then run the command again. Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."
	wantDiags(t, pr.diags, warningDiag("Could not check whether the host offers Form transitions: host unreachable at http://127.0.0.1:1",
		"The transition is planned; nothing was decided at plan time and apply checks again.",
		"",
		"Cause: host unreachable at http://127.0.0.1:1: connection refused (nothing listens at that address) (GET /.well-known/takoform/v1beta1)",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Code: takoform.provider/host-support-unreadable (takoform.provider/host-unreachable)",
		"Retryable: yes",
		"",
		unreachable).at("form_transition"),
		warningDiag("Could not check host support for Form AtLeastOnceQueue 0.2.0: host unreachable at http://127.0.0.1:1",
			"Nothing was decided at plan time; apply still checks.",
			"",
			"Cause: host unreachable at http://127.0.0.1:1: connection refused (nothing listens at that address) (GET /.well-known/takoform/v1beta1)",
			"",
			"Resource: takoform_at_least_once_queue (dev/orders)",
			"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-2>",
			"Route: GET /.well-known/takoform/v1beta1",
			"Code: takoform.provider/host-support-unreadable (takoform.provider/host-unreachable)",
			"Retryable: yes",
			"",
			unreachable))
	if pr.planned.str(aFormDefVersion) != "0.2.0" || !pr.planned[aGeneration].IsUnknown() {
		t.Errorf("planned version %q generation %v; want the transition planned", pr.planned.str(aFormDefVersion), pr.planned[aGeneration])
	}
}

// TestTransitionRefusedByTheHostKeepsTheOldRef: a transition planned from a stale
// state (the resource moved on the host since) is refused by the host's generation
// fence: the apply fails naming the host's code, and the resource stays on 0.1.0.
func TestTransitionRefusedByTheHostKeepsTheOldRef(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	moved := values{aName: s("orders"), "message_retention_seconds": i64(7200), aFormDefVersion: s("0.1.0")}
	pr := h.plan(queueType, moved, st)
	mustNoError(t, "plan the update", pr.diags)
	if _, d := h.apply(queueType, moved, st, pr.planned); hasError(d) {
		t.Fatal(dump(d))
	}
	seen := transitionHost(t, h, nil)
	up, d := applyTransition(t, h, cfg, st) // from the stale state: generation 1
	wantDiags(t, named(d, "<uid>", st.str(aUID)), errorDiag("Failed to update AtLeastOnceQueue orders",
		"The host refused the Form transition; the resource stays on 0.1.0.",
		"",
		`Host: fence 1 is stale: AtLeastOnceQueue "orders" in space "dev" is at generation 2; refresh and re-plan`,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Expected UID: <uid>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Operation: <formtx-1>",
		"Request: <req-1>",
		"Code: generation_conflict (host, HTTP 412)",
		"Retryable: no",
		"",
		"Someone else changed the resource. Refresh and apply again."))
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" || seen("POST") != 1 {
		t.Errorf("after the refusal: version=%q pending=%q posts=%d", up.str(aFormDefVersion), up.str(aPendingOp), seen("POST"))
	}
}

// TestTransitionPlannedBeforeTheProviderIsConfiguredAsksNothing: a provider whose block
// is not configured yet (no host known) plans the transition without asking discovery,
// and without a warning; apply checks.
func TestTransitionPlannedBeforeTheProviderIsConfiguredAsksNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	h.unconfigure()
	before := capCounters(t, h).requests
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	if len(pr.diags) != 0 || pr.planned.str(aFormDefVersion) != "0.2.0" {
		t.Errorf("want a quiet transition plan to 0.2.0; version=%q\n%s", pr.planned.str(aFormDefVersion), dump(pr.diags))
	}
	if got := capCounters(t, h).requests - before; got != 0 {
		t.Errorf("%d requests reached the host", got)
	}
}

// TestTransitionWhoseHostCannotBeDiscoveredAtApplySendsNothing: when the host's
// discovery fails at apply (the plan only warned), no transition request is sent, not
// even the readback before the POST. The readback is what tells whether an earlier
// attempt committed, so the outcome stays unknown: the state keeps 0.1.0 and records
// the operation, and once discovery answers, the next apply commits.
func TestTransitionWhoseHostCannotBeDiscoveredAtApplySendsNothing(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	failing := false
	seen := transitionHostWith(t, h, nil, func(r *http.Request, fwd func() reply) (reply, bool) {
		if failing && strings.HasPrefix(r.URL.Path, "/.well-known/takoform") {
			return serverError(t), true
		}
		return reply{}, false
	})
	failing = true
	pr := h.plan(queueType, cfg, st)
	if len(pr.diags) != 2 || pr.diags[0].Severity != tfprotov6.DiagnosticSeverityWarning || pr.diags[1].Severity != tfprotov6.DiagnosticSeverityWarning {
		t.Fatalf("the plan against a host whose discovery fails: %v; want the two support warnings", normalizeDiags(pr.diags))
	}
	up, d := h.apply(queueType, cfg, st, pr.planned)
	wantDiags(t, d, queueTransitionError("Outcome of the Form transition of AtLeastOnceQueue orders is not known yet",
		"The state keeps 0.1.0 and records the operation; running apply again reconciles it.",
		"Host: the host's store failed", "req_probe", "takoform.provider/form-transition-indeterminate", false,
		"Run tofu apply again with the same configuration."))
	if up.str(aFormDefVersion) != "0.1.0" || !strings.HasPrefix(up.str(aPendingOp), "formtx_") {
		t.Fatalf("after an apply whose discovery failed: version=%q pending=%q; want 0.1.0 with the operation recorded", up.str(aFormDefVersion), up.str(aPendingOp))
	}
	mustSend(t, seen, 0, 0, "an apply whose discovery failed", "none")
	failing = false
	done, d := applyTransition(t, h, cfg, up)
	mustBeCommitted(t, st, done, d)
}
