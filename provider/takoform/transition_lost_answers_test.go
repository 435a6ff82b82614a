package takoform

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// mustBeIndeterminate asserts the apply ended with the transition's outcome unknown:
// the error names the resource, says to apply again and points at the readback; the
// state keeps the old ref and records the operation.
func mustBeIndeterminate(t *testing.T, up values, d []*tfprotov6.Diagnostic, cause string) {
	t.Helper()
	dg := diagWith(d, "Outcome of the Form transition of AtLeastOnceQueue orders is not known yet", codeFormTransitionIndeterminat,
		"The state keeps 0.1.0 and records the operation", "(readback http", "/apis/forms.takoform.com/v1beta1/resources/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/orders/form-transitions/formtx_",
		"Run tofu apply again with the same configuration.", cause)
	if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the indeterminate error (cause %q):\n%s", cause, dump(d))
	}
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
	mustBeIndeterminate(t, up, d, "; readback: ")
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
	dg := diagWith(d, "Host rejected the Form transition of AtLeastOnceQueue orders", "failure code backend_rejected",
		"unchanged and operable on 0.1.0", codeFormTransitionRejected, "Apply again to try under a new operation id")
	if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("want the rejection:\n%s", dump(d))
	}
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" {
		t.Fatalf("after the rejection: version=%q pending=%q", up.str(aFormDefVersion), up.str(aPendingOp))
	}
}

// TestTransitionRejectedBeforeTheNextApplyIsReportedByItsFirstReadback: an apply ends
// indeterminate (answer and readback lost) although the host rejected the transition;
// the next apply's first readback reads the rejection and sends no POST, and the state
// stops recording the operation, so the next refresh and apply work.
func TestTransitionRejectedBeforeTheNextApplyIsReportedByItsFirstReadback(t *testing.T) {
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
	mustBeIndeterminate(t, up, d, "; readback: ")
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
	mustBeIndeterminate(t, up, d, "; readback: host refused with resource_not_found (HTTP 404)")
	lose = false
	rd, d := h.read(queueType, up)
	mustNoError(t, "refresh", d)
	if len(d) != 0 || rd.str(aPendingOp) != "" || rd.str(aFormDefVersion) != "0.1.0" || rd.str(aGeneration) != "1" {
		t.Fatalf("refresh of a transition the host never recorded: pending=%q version=%q gen=%q\n%s", rd.str(aPendingOp), rd.str(aFormDefVersion), rd.str(aGeneration), dump(d))
	}
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
	mustBeIndeterminate(t, up, d, "; readback: ")
	lose = false
	rd, d := h.read(queueType, up)
	mustNoError(t, "refresh", d)
	dg := diagWith(d, "Form transition of AtLeastOnceQueue orders was rejected", "Failure code backend_rejected; the resource is unchanged and operable.",
		"Operation: "+up.str(aPendingOp))
	if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityWarning {
		t.Fatalf("want the rejection warning:\n%s", dump(d))
	}
	if rd.str(aPendingOp) != "" || rd.str(aFormDefVersion) != "0.1.0" || rd.str(aGeneration) != "1" {
		t.Fatalf("after the refresh: pending=%q version=%q gen=%q", rd.str(aPendingOp), rd.str(aFormDefVersion), rd.str(aGeneration))
	}
	done, d := applyTransition(t, h, cfg, rd)
	mustBeCommitted(t, st, done, d)
}
