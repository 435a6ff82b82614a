package takoform

import (
	"net/http"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// wrongGeneration rewrites a committed transition answer so its proof claims
// generation 3 (the request moves 1 to 2): a receipt that does not verify.
func wrongGeneration(t *testing.T, rep reply) reply {
	if rep.status != http.StatusOK {
		return rep
	}
	rep.body = editJSON(t, rep.body, func(doc map[string]any) {
		doc["transitionProof"].(map[string]any)["generation"] = "3"
	})
	return rep
}

// TestTransitionReceiptThatDoesNotVerifyIsNeverAdopted: a committed answer whose proof
// does not match the request leaves the apply indeterminate, and a refresh whose
// readback carries such a receipt keeps the state and says why; once the host's
// readback verifies, refresh adopts the commit under 0.2.0.
func TestTransitionReceiptThatDoesNotVerifyIsNeverAdopted(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	st, cfg := oldQueue(t, h)
	corrupt := true
	transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
		if corrupt {
			return wrongGeneration(t, fwd())
		}
		return fwd()
	})
	up, d := applyTransition(t, h, cfg, st)
	mustBeIndeterminate(t, up, d, transitionIndeterminate("Cause: the commit receipt does not verify: generation 3/2 is not 2", "", false))

	rd, d := h.read(queueType, up)
	wantDiags(t, named(d, "<pending>", up.str(aPendingOp)), errorDiag("Could not check the Form transition of AtLeastOnceQueue orders",
		"The commit receipt does not verify; the state was kept.",
		"",
		"Cause: generation 3/2 is not 2",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.1.0 schema=<sha256-1>",
		"Operation: <pending>",
		"Code: takoform.provider/host-response-invalid",
		"Retryable: no",
		"",
		"The host's proof does not match the transition that was sent, so the provider adopts nothing. Report it to the host operator; once the host's readback verifies, the next refresh or apply adopts the commit."))
	if rd != nil && (rd.str(aFormDefVersion) != "0.1.0" || rd.str(aPendingOp) != up.str(aPendingOp)) {
		t.Fatalf("a receipt that does not verify moved the state: version=%q pending=%q", rd.str(aFormDefVersion), rd.str(aPendingOp))
	}

	corrupt = false
	mustKeepTransition(t, h, true)
	rd, d = h.read(queueType, up)
	mustNoError(t, "refresh with a receipt that verifies", d)
	mustKeepTransition(t, h, false)
	if rd.str(aFormDefVersion) != "0.2.0" || rd.str(aGeneration) != "2" || rd.str(aUID) != st.str(aUID) || rd.str(aPendingOp) != "" {
		t.Fatalf("refresh after the commit: version=%q gen=%q uid=%q pending=%q", rd.str(aFormDefVersion), rd.str(aGeneration), rd.str(aUID), rd.str(aPendingOp))
	}
	pr := h.plan(queueType, cfg, rd)
	mustNoError(t, "plan after adoption", pr.diags)
	if len(pr.replace) != 0 || pr.planned.str(aFormDefVersion) != "0.2.0" || pr.planned.str(aUID) != st.str(aUID) {
		t.Errorf("plan after adoption: replace=%v version=%q uid=%q; want 0.2.0 in place", pr.replace, pr.planned.str(aFormDefVersion), pr.planned.str(aUID))
	}
}

// accepted turns a committed transition answer into the 202 a host gives while the
// transition is still running: the operation prepared, no resource, no proof.
func accepted(t *testing.T, rep reply) reply {
	if rep.status != http.StatusOK {
		return rep
	}
	rep.status = http.StatusAccepted
	rep.body = editJSON(t, rep.body, func(doc map[string]any) {
		delete(doc, "resource")
		delete(doc, "transitionProof")
		doc["operation"].(map[string]any)["status"] = "prepared"
	})
	rep.header.Del("ETag")
	return rep
}

// TestTransitionAcceptedButNotFinishedIsIndeterminate: a host that answers the POST
// 202 (still running) leaves the apply indeterminate; so does one whose POST answer is
// lost and whose readback says the operation is still running. No second POST either
// way, and the next refresh adopts the commit.
func TestTransitionAcceptedButNotFinishedIsIndeterminate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		hook  func(t *testing.T, method string, fwd func() reply) reply
		cause string
	}{
		{"202 to the POST", func(t *testing.T, method string, fwd func() reply) reply {
			if method == "POST" {
				return accepted(t, fwd())
			}
			return fwd()
		}, "Cause: the host answered the transition prepared"},
		{"answer lost, readback running", func(t *testing.T, method string, fwd func() reply) reply {
			if method == "POST" {
				fwd()
				return dropped
			}
			return accepted(t, fwd())
		}, postLost},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			running := true
			seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
				if running {
					return c.hook(t, method, fwd)
				}
				return fwd()
			})
			up, d := applyTransition(t, h, cfg, st)
			mustBeIndeterminate(t, up, d, transitionIndeterminate(c.cause, "", false))
			if seen("POST") != 1 {
				t.Errorf("%d POSTs, want exactly one", seen("POST"))
			}
			running = false
			rd, d := h.read(queueType, up)
			mustNoError(t, "refresh once the host finished", d)
			if rd.str(aFormDefVersion) != "0.2.0" || rd.str(aPendingOp) != "" {
				t.Errorf("refresh after the commit: version=%q pending=%q", rd.str(aFormDefVersion), rd.str(aPendingOp))
			}
		})
	}
}
