package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// crashedAtA leaves the queue's transition prepared but never dispatched (crash point
// A): the apply is indeterminate and the state records the operation.
func crashedAtA(t *testing.T, h *harness) (st, cfg, up values) {
	t.Helper()
	st, cfg = oldQueue(t, h)
	if err := h.sim.Admin.ArmFault("transition.crash=A,kind=AtLeastOnceQueue,count=1"); err != nil {
		t.Fatal(err)
	}
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate(postDropped, "", false))
	return st, cfg, up
}

// TestTransitionIsPostedAgainOnlyWhenTheHostHoldsItUndispatched: the next apply posts
// the kept request only when its first readback shows that very request (same
// digest) prepared and never dispatched. A readback saying it was dispatched, or
// holding another request under the id, ends the apply indeterminate with no POST.
func TestTransitionIsPostedAgainOnlyWhenTheHostHoldsItUndispatched(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	st, cfg, up := crashedAtA(t, h)
	var edit func(op map[string]any)
	seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		rep := fwd()
		if method == "GET" && edit != nil {
			rep.body = editJSON(t, rep.body, func(doc map[string]any) { edit(doc["operation"].(map[string]any)) })
		}
		return rep
	})
	for _, c := range []struct {
		name, cause string
		edit        func(op map[string]any)
	}{
		{"dispatched", "Cause: the host reports the transition prepared (dispatched: true)", func(op map[string]any) { op["dispatchAttempted"] = true }},
		{"another request", "Cause: the host reports the transition prepared (dispatched: false)", func(op map[string]any) {
			op["requestDigest"] = "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		}},
	} {
		edit = c.edit
		again, d := applyTransition(t, h, cfg, up)
		mustBeIndeterminate(t, again, d, transitionIndeterminate(c.cause, "", false))
		if seen("POST") != 0 {
			t.Fatalf("%s: the kept request was posted (%d) although the readback did not allow it", c.name, seen("POST"))
		}
		up = again
	}
	edit = nil
	done, d := applyTransition(t, h, cfg, up)
	mustBeCommitted(t, st, done, d)
	if seen("POST") != 1 {
		t.Errorf("%d POSTs, want exactly one once the readback allows it", seen("POST"))
	}
}

// TestTransitionRefreshWithoutItsKeptRequestKeepsTheState: a state that records an
// unresolved transition but has lost its kept request (private state) cannot be
// checked: refresh says so, with the operation id, and leaves the state as it was.
func TestTransitionRefreshWithoutItsKeptRequestKeepsTheState(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	_, _, up := crashedAtA(t, h)
	h.private[queueType] = nil
	rd, d := h.read(queueType, up)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), errorDiag("Could not check the Form transition of AtLeastOnceQueue orders",
		"The request of the unresolved transition is not in the resource's private state; the state was kept.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Operation: <pending>",
		"Code: takoform.provider/operation-resume-failed",
		"Retryable: no",
		"",
		"Run tofu apply with the same configuration to re-send it."))
	for k, v := range up {
		if rd != nil && !rd[k].Equal(v) {
			t.Errorf("refresh changed %s: %v -> %v", k, v, rd[k])
		}
	}
}

// TestTransitionRefreshWhoseReadbackFailsKeepsTheState: a readback that gets no
// answer keeps the state and the kept request; the next refresh that reads it settles.
func TestTransitionRefreshWhoseReadbackFailsKeepsTheState(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	_, _, up := crashedAtA(t, h)
	down := true
	transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		if down {
			return dropped
		}
		return fwd()
	})
	rd, d := h.read(queueType, up)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), errorDiag("Could not check the Form transition of AtLeastOnceQueue orders",
		"The readback could not be read; the state was kept.",
		"",
		"Cause: GET http://127.0.0.1:<port-1>"+readbackPath+": no complete answer from the host: unexpected EOF",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Operation: <pending>",
		"Retryable: no",
		"",
		"The connection to the host broke before a complete answer came. Check the endpoint and network, then apply again."))
	if rd != nil && rd.str(aPendingOp) != up.str(aPendingOp) {
		t.Fatalf("the pending operation was dropped: %q", rd.str(aPendingOp))
	}
	down = false
	rd, d = h.read(queueType, up)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), transitionInProgress)
	if rd.str(aPendingOp) != up.str(aPendingOp) {
		t.Fatalf("the operation was not kept: %q", rd.str(aPendingOp))
	}
}

// TestTransitionIsPostedOnlyAfterTheHostSaysItNeverSawIt: before its one POST a
// transition reads its operation back; only the host's "this operation is not known"
// (404 with hostCode form_transition_operation_not_found) leads to the POST. Any other
// refusal of that readback — the resource not found, the backend unavailable — ends
// the apply indeterminate with nothing posted.
func TestTransitionIsPostedOnlyAfterTheHostSaysItNeverSawIt(t *testing.T) {
	for _, c := range []struct {
		name   string
		status int
		body   string
		want   diagnostic // names the host's refusal
	}{
		{"resource not found", 404, `{"error":{"code":"resource_not_found","message":"AtLeastOnceQueue orders does not exist","requestId":"req_probe1","retryable":false}}`,
			transitionIndeterminate("Host: AtLeastOnceQueue orders does not exist", "req_probe1", false)},
		{"backend unavailable", 503, `{"error":{"code":"backend_unavailable","message":"try later","requestId":"req_probe2","retryable":true}}`,
			transitionIndeterminate("Host: try later", "req_probe2", true)},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
				if method == "GET" {
					return reply{status: c.status, body: []byte(c.body)}
				}
				return fwd()
			})
			up, d := applyTransition(t, h, cfg, st)
			mustBeIndeterminate(t, up, d, c.want)
			if seen("POST") != 0 {
				t.Errorf("%d POSTs (want none)", seen("POST"))
			}
		})
	}
}
