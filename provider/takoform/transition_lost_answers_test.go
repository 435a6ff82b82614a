package takoform

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// The queue orders' transition routes, as the diagnostics name them (the host is
// the test's first loopback server, the operation the first formtx_ id).
const (
	transitionsURL = "http://127.0.0.1:<port-1>/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/orders/form-transitions"
	readbackURL    = transitionsURL + "/<formtx-1>?space=dev"
	readbackPath   = "/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/orders/form-transitions/<pending>?space=dev"
	// postLost is the cause of a POST whose answer a test host cut short
	postLost = "Cause: POST " + transitionsURL + "?space=dev: no complete answer from the host: unexpected EOF"
	// postDropped is the cause of a POST whose connection hostsim reset (a crash fault)
	postDropped = "Cause: POST " + transitionsURL + "?space=dev: no complete answer from the host: read tcp 127.0.0.1:<port-2>->127.0.0.1:<port-1>: read: connection reset by peer"
)

// transitionIndeterminate is the error of an apply of the queue orders' transition
// whose outcome is not known: why is its Cause or Host line, request the Request
// line's id ("" for none), retryable what the host said.
func transitionIndeterminate(why, request string, retryable bool) diagnostic {
	return queueTransitionError("Outcome of the Form transition of AtLeastOnceQueue orders is not known yet",
		"The state keeps 0.1.0 and records the operation; running apply again reconciles it (readback "+readbackURL+").",
		why, request, "takoform.provider/form-transition-indeterminate", retryable, "Run tofu apply again with the same configuration.")
}

// queueTransitionError is an error of an apply of the queue orders' transition from
// 0.1.0 at generation and revision 1: its summary, what happened, the Cause or Host
// line why, the Request line's id ("" for none), the code, what the host said of
// retrying, and the repair.
func queueTransitionError(summary, what, why, request, code string, retryable bool, repair string) diagnostic {
	lines := []string{what,
		"",
		why,
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Expected UID: <uid-1>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Operation: <formtx-1>"}
	if request != "" {
		lines = append(lines, "Request: "+request)
	}
	retry := "Retryable: no"
	if retryable {
		retry = "Retryable: yes"
	}
	lines = append(lines, "Code: "+code, retry, "", repair)
	return errorDiag(summary, lines...)
}

// rejectedByHost is the host's message when it rejects the queue orders' transition
// op (hostsim's transition.reject fault).
func rejectedByHost(op string) string {
	return `Host: Form transition ` + op + ` of AtLeastOnceQueue "orders" in space "dev" was rejected (failureCode backend_rejected): the backend definitively rejected it. The resource keeps its Form, spec and generation 1 and stays operable; refresh it and apply again (the new attempt gets a new operationId)`
}

// refreshRejected is the warning of a refresh whose readback finds the transition
// op rejected.
func refreshRejected(op string) diagnostic {
	return warningDiag("Form transition of AtLeastOnceQueue orders was rejected",
		"The host rejected the transition with failure code backend_rejected; the resource is unchanged and operable on 0.1.0, and the state no longer records the operation.",
		"",
		rejectedByHost(op),
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Operation: "+op,
		"Request: <req-1>",
		"Host reason: backend_rejected",
		"Code: takoform.provider/form-transition-rejected (form_identity_conflict (host, HTTP 409))",
		"Retryable: no",
		"",
		"The host rejected the Form transition; the resource is unchanged and operable. Apply again to try under a new operation id.")
}

// transitionInProgress is the warning of a refresh whose readback finds the
// transition <pending> prepared.
var transitionInProgress = warningDiag("AtLeastOnceQueue orders has a Form transition in progress",
	"The host reports it prepared (readback "+readbackPath+"); the state is kept unchanged.",
	"",
	"Resource: takoform_at_least_once_queue (dev/orders)",
	"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
	"Operation: <pending>",
	"Retryable: no",
	"",
	"Run tofu apply again with the same configuration.")

// transitionRejected is the error of an apply whose transition the host rejected.
var transitionRejected = errorDiag("Host rejected the Form transition of AtLeastOnceQueue orders",
	"The transition was definitively rejected with failure code backend_rejected; the resource is unchanged and operable on 0.1.0.",
	"",
	rejectedByHost("<formtx-1>"),
	"",
	"Resource: takoform_at_least_once_queue (dev/orders)",
	"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
	"Expected UID: <uid-1>",
	"Expected generation: 1",
	"Expected revision: 1",
	"Operation: <formtx-1>",
	"Request: <req-1>",
	"Host reason: backend_rejected",
	"Code: takoform.provider/form-transition-rejected (form_identity_conflict (host, HTTP 409))",
	"Retryable: no",
	"",
	"Apply again to try under a new operation id (the host's message above says why it rejected this one), or remove form_transition to stay on 0.1.0.")

// mustBeIndeterminate asserts the apply ended with the transition's outcome unknown,
// with exactly the error want (transitionIndeterminate); the state keeps the old ref
// and records the operation.
func mustBeIndeterminate(t *testing.T, up values, d []*tfprotov6.Diagnostic, want diagnostic) {
	t.Helper()
	wantDiags(t, d, want)
	if up.str(aFormDefVersion) != "0.1.0" || !strings.HasPrefix(up.str(aPendingOp), "formtx_") || up.str(aGeneration) != "1" {
		t.Fatalf("indeterminate state: version=%q pending=%q generation=%q", up.str(aFormDefVersion), up.str(aPendingOp), up.str(aGeneration))
	}
}

// mustBeCommitted asserts the transition committed in place: 0.2.0, generation 2, the
// same uid, no pending operation.
func mustBeCommitted(t *testing.T, st, done values, d []*tfprotov6.Diagnostic) {
	t.Helper()
	mustNoError(t, "apply", d)
	if done.str(aFormDefVersion) != "0.2.0" || done.str(aGeneration) != "2" || done.str(aUID) != st.str(aUID) || done.str(aPendingOp) != "" {
		t.Fatalf("after the commit: version=%q gen=%q uid=%q pending=%q", done.str(aFormDefVersion), done.str(aGeneration), done.str(aUID), done.str(aPendingOp))
	}
}

// TestTransitionWhoseAnswerAndReadbackAreLostSettlesOnTheNextApply: the host commits
// the POST but its answer and the one readback after it are lost: the apply ends
// indeterminate. The next apply's first readback finds the commit and settles it
// without a second POST.
func TestTransitionWhoseAnswerAndReadbackAreLostSettlesOnTheNextApply(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	lose := true
	seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		rep := fwd()
		if lose && (method == "POST" || n == 2) {
			return dropped
		}
		return rep
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate(postLost+"; readback: GET "+readbackURL+": no complete answer from the host: unexpected EOF", "", false))
	lose = false
	done, d := applyTransition(t, h, cfg, up)
	mustBeCommitted(t, st, done, d)
	if seen("POST") != 1 || seen("GET") != 3 {
		t.Errorf("transition requests: %d POST, %d GET; want the one POST and three readbacks", seen("POST"), seen("GET"))
	}
}

// TestTransitionRejectedWhileItsAnswerWasLost: the host rejects the transition but
// the answer is lost; the one readback reads the rejection, so the apply reports it
// and the resource stays on 0.1.0 with nothing pending.
func TestTransitionRejectedWhileItsAnswerWasLost(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("transition.reject,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		rep := fwd()
		if method == "POST" {
			return dropped
		}
		return rep
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeRejected(t, up, d)
	if seen("POST") != 1 || seen("GET") != 2 {
		t.Errorf("transition requests: %d POST, %d GET; want one POST and its one readback after the first", seen("POST"), seen("GET"))
	}
}

// mustBeRejected asserts the definitive rejection: the error names the failure code,
// the resource stays on 0.1.0, operable, with no pending operation.
func mustBeRejected(t *testing.T, up values, d []*tfprotov6.Diagnostic) {
	t.Helper()
	wantDiags(t, d, transitionRejected)
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" {
		t.Fatalf("after the rejection: version=%q pending=%q", up.str(aFormDefVersion), up.str(aPendingOp))
	}
}

// TestTransitionRejectedBeforeTheNextApplyIsReportedByItsFirstReadback: an apply ends
// indeterminate (answer and readback lost) although the host rejected the transition;
// the next apply's first readback reads the rejection and sends no POST, and the state
// stops recording the operation, so the next refresh and apply work.
func TestTransitionRejectedBeforeTheNextApplyIsReportedByItsFirstReadback(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("transition.reject,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	lose := true
	seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		rep := fwd()
		if lose && (method == "POST" || n == 2) {
			return dropped
		}
		return rep
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate(postLost+"; readback: GET "+readbackURL+": no complete answer from the host: unexpected EOF", "", false))
	lose = false
	again, d := applyTransition(t, h, cfg, up)
	mustBeRejected(t, again, d)
	if seen("POST") != 1 {
		t.Errorf("%d POSTs; the rejection read back must not be posted again", seen("POST"))
	}
	// the rejected operation is no longer pending: refresh is clean and the next apply
	// transitions under a new operation id
	rd, d := h.read(queueType, again)
	mustNoError(t, "refresh after the rejection", d)
	done, d := applyTransition(t, h, cfg, rd)
	mustBeCommitted(t, st, done, d)
}

// TestTransitionPostThatNeverArrivedIsForgottenOnRefresh: the POST is lost before it
// reaches the host, so the readback after it finds no operation: the apply ends
// indeterminate. The next refresh reads that the host never recorded it and clears
// the pending operation, keeping 0.1.0; the next apply transitions under a new id.
func TestTransitionPostThatNeverArrivedIsForgottenOnRefresh(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	lose := true
	transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		if lose && method == "POST" {
			return dropped // never forwarded
		}
		return fwd()
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate(postLost+"; readback: host refused with resource_not_found (HTTP 404): Form transition operation <formtx-1> is not known for this resource (never posted, or posted by another tenant or for another resource); POST the request to start it", "", false))
	lose = false
	mustKeepTransition(t, h, true)
	rd, d := h.read(queueType, up)
	mustNoError(t, "refresh", d)
	if len(d) != 0 || rd.str(aPendingOp) != "" || rd.str(aFormDefVersion) != "0.1.0" || rd.str(aGeneration) != "1" {
		t.Fatalf("refresh of a transition the host never recorded: pending=%q version=%q gen=%q\n%s", rd.str(aPendingOp), rd.str(aFormDefVersion), rd.str(aGeneration), dump(d))
	}
	mustKeepTransition(t, h, false)
	done, d := applyTransition(t, h, cfg, rd)
	mustBeCommitted(t, st, done, d)
	if done.str(aPendingOp) == up.str(aPendingOp) {
		t.Error("the retry must go under a new operation id")
	}
}

// TestTransitionRejectedWhileUnresolvedIsClearedByRefresh: an apply ends indeterminate
// (answer and readback lost) although the host rejected the transition; the next
// refresh reads the rejection, warns, keeps 0.1.0 and clears the pending operation,
// and the apply after it transitions under a new operation id.
func TestTransitionRejectedWhileUnresolvedIsClearedByRefresh(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("transition.reject,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	lose := true
	transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		rep := fwd()
		if lose && (method == "POST" || n == 2) {
			return dropped
		}
		return rep
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate(postLost+"; readback: GET "+readbackURL+": no complete answer from the host: unexpected EOF", "", false))
	lose = false
	mustKeepTransition(t, h, true)
	rd, d := h.read(queueType, up)
	mustKeepTransition(t, h, false)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), refreshRejected("<pending>"))
	if rd.str(aPendingOp) != "" || rd.str(aFormDefVersion) != "0.1.0" || rd.str(aGeneration) != "1" {
		t.Fatalf("after the refresh: pending=%q version=%q gen=%q", rd.str(aPendingOp), rd.str(aFormDefVersion), rd.str(aGeneration))
	}
	done, d := applyTransition(t, h, cfg, rd)
	mustBeCommitted(t, st, done, d)
}

// mustKeepTransition fails unless the queue's private state holds the kept request
// of an unresolved transition (want) or no longer does (!want): a resolved
// transition's request must not linger to be resent.
func mustKeepTransition(t *testing.T, h *harness, want bool) {
	t.Helper()
	if got := bytes.Contains(h.private[queueType], []byte(`"`+privateTransitionKey+`"`)); got != want {
		t.Fatalf("private state holds the transition's kept request: %v, want %v (%s)", got, want, h.private[queueType])
	}
}
