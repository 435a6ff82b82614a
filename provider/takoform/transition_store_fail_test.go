package takoform

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestTransitionStateFollowsTheHostWhateverStatementFails fails, in turn, each data
// statement (store.fail) and each read inside the writes (store.read-fail) of the
// host's transition POST, hostsim answering each failure 500. Some fail before the
// host stored anything, some after it claimed the resource, some after it advanced
// it. Whichever, the apply tells what the host holds: committed on 0.2.0 when the
// readback after the 500 finds the commit, outcome unknown (the operation recorded)
// while the host holds it unfinished, failed or rejected with the state on 0.1.0
// when the host holds the resource on 0.1.0. A refresh after it never drops the
// resource, and the next apply, with no fault armed, commits. A provider that took
// the 500 for a refusal kept 0.1.0 with no operation while the host had advanced,
// and the refresh after it dropped the resource (the host answers it only under its
// recorded ref). The sweep ends at the first statement the fault does not reach.
func TestTransitionStateFollowsTheHostWhateverStatementFails(t *testing.T) {
	t.Parallel()
	for _, fault := range []string{"store.fail", "store.read-fail"} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			outcomes := map[string]int{}
			for n := 1; ; n++ {
				if n > 60 {
					t.Fatalf("%s: a transition POST of more than 60 statements: the sweep does not end", fault)
				}
				h := newHarness(t, hostsim.Config{})
				st, cfg := oldQueue(t, h)
				armed := fmt.Sprintf("%s=%d", fault, n)
				if err := h.sim.Admin.ArmFault(armed + ",route=form-transition,count=1"); err != nil {
					t.Fatal(err)
				}
				up, d := applyTransition(t, h, cfg, st)
				c, err := h.sim.Admin.Counters()
				if err != nil {
					t.Fatal(err)
				}
				fired := c.Fired[armed]
				if fired == 0 {
					mustBeCommitted(t, st, up, d)
					if n < 5 {
						t.Fatalf("%s never fired: the sweep reached no statement", armed)
					}
					t.Logf("%s over the transition POST's first %d statements of its kind: %v", fault, n-1, outcomes)
					return
				}
				outcome := transitionOutcomeOf(t, armed, st, up, d)
				outcomes[outcome]++
				if v := hostVersion(t, h); v != up.str(aFormDefVersion) && outcome != "unknown" {
					t.Fatalf("%s: the apply ended %s with the state on %s, the host holds %s", armed, outcome, up.str(aFormDefVersion), v)
				}
				rd, rdiags := h.read(queueType, up)
				if rd == nil {
					t.Fatalf("%s: the refresh after an apply that ended %s dropped the resource (%v)", armed, outcome, rdiags)
				}
				mustNoError(t, armed+": the refresh", rdiags)
				if err := h.sim.Admin.DisarmFaults(); err != nil {
					t.Fatal(err)
				}
				done, d := applyTransition(t, h, cfg, rd)
				mustBeCommitted(t, st, done, d)
			}
		})
	}
}

// transitionOutcomeOf names how an apply whose POST failed ended, and fails t unless
// its state is that outcome's: committed (0.2.0, generation 2, no operation), unknown
// (0.1.0, the operation recorded), or failed and rejected (0.1.0, no operation).
func transitionOutcomeOf(t *testing.T, armed string, st, up values, d []*tfprotov6.Diagnostic) string {
	t.Helper()
	if len(d) == 0 {
		mustBeCommitted(t, st, up, d)
		return "committed"
	}
	summaries := map[string]string{
		"Outcome of the Form transition of AtLeastOnceQueue orders is not known yet": "unknown",
		"Host rejected the Form transition of AtLeastOnceQueue orders":               "rejected",
		"Failed to update AtLeastOnceQueue orders":                                   "failed",
	}
	outcome, ok := summaries[d[0].Summary]
	if len(d) != 1 || d[0].Severity != tfprotov6.DiagnosticSeverityError || !ok {
		t.Fatalf("%s: the apply answered %d diagnostics, first %q; want one error saying the transition is unknown, rejected or failed", armed, len(d), d[0].Summary)
	}
	pending := up.str(aPendingOp) != ""
	if up.str(aFormDefVersion) != "0.1.0" || up.str(aGeneration) != "1" || up.str(aUID) != st.str(aUID) || pending != (outcome == "unknown") {
		t.Fatalf("%s: the apply ended %s with version=%q generation=%q pending=%q", armed, outcome, up.str(aFormDefVersion), up.str(aGeneration), up.str(aPendingOp))
	}
	return outcome
}

// hostVersion is the definition version hostsim holds the queue orders under.
func hostVersion(t *testing.T, h *harness) string {
	t.Helper()
	raw, err := h.sim.Admin.State()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources []struct {
			Name              string `json:"name"`
			DefinitionVersion string `json:"definitionVersion"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Resources {
		if r.Name == "orders" {
			return r.DefinitionVersion
		}
	}
	t.Fatal("hostsim holds no queue orders")
	return ""
}

// serverError is hostsim-shaped internal_error 500 envelope of a host whose store failed.
func serverError(t *testing.T) reply {
	body, err := json.Marshal(map[string]any{"error": map[string]any{"code": "internal_error",
		"message": "the host's store failed", "retryable": false, "requestId": "req_probe"}})
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: http.StatusInternalServerError, header: http.Header{}, body: body}
}

// serverErrorDiag is the refusal a report makes of serverError's answer: summary and what,
// then the lines that name the resource (Resource, Form, Pointer, fences, Operation).
func serverErrorDiag(summary, what string, resource ...string) diagnostic {
	lines := append([]string{what, "", "Host: the host's store failed", ""}, resource...)
	return errorDiag(summary, append(lines, "Request: req_probe", "Code: internal_error (host, HTTP 500)", "Retryable: no", "",
		"This is a host fault. Report it to the host operator with the Request id.")...)
}

// TestTransitionPostWhoseAnswerLeavesTheOutcomeOpenIsReadBack: a POST the host
// forwarded and committed, answered with a server error or with an answer that breaks
// the protocol, is read back once: the readback's commit is adopted (0.2.0,
// generation 2), and nothing is POSTed again. A refusal (4xx) is final: no readback
// follows it. A server error whose readback finds no operation (the host kept nothing)
// fails the apply on 0.1.0 with no operation recorded, and the next apply commits.
func TestTransitionPostWhoseAnswerLeavesTheOutcomeOpenIsReadBack(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		bend func(t *testing.T, rep reply) reply
	}{
		{"500 internal_error", func(t *testing.T, _ reply) reply { return serverError(t) }},
		{"502 without an envelope", func(t *testing.T, _ reply) reply {
			return reply{status: http.StatusBadGateway, header: http.Header{}, body: nil}
		}},
		{"500 without an envelope", func(t *testing.T, _ reply) reply {
			return reply{status: http.StatusInternalServerError, header: http.Header{}, body: []byte("upstream failed")}
		}},
		{"201 instead of 200", func(t *testing.T, rep reply) reply { rep.status = http.StatusCreated; return rep }},
		{"202 carrying the resource", func(t *testing.T, rep reply) reply {
			rep.status = http.StatusAccepted
			rep.body = editJSON(t, rep.body, func(doc map[string]any) {
				doc["operation"].(map[string]any)["status"] = "prepared"
				delete(doc, "transitionProof")
			})
			return rep
		}},
		{"200 without the proof", func(t *testing.T, rep reply) reply {
			rep.body = editJSON(t, rep.body, func(doc map[string]any) { delete(doc, "transitionProof") })
			return rep
		}},
		{"200 whose resource is not an object", func(t *testing.T, rep reply) reply {
			rep.body = editJSON(t, rep.body, func(doc map[string]any) { doc["resource"] = []any{1} })
			return rep
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
				if method == "POST" {
					return c.bend(t, fwd())
				}
				return fwd()
			})
			up, d := applyTransition(t, h, cfg, st)
			mustBeCommitted(t, st, up, d)
			mustSend(t, seen, 1, 2, "the transition", "1 POST, the readback before it and the one after")
		})
	}

	// refusals: a host error envelope, and a 4xx whose body is no envelope (the answer
	// breaks the protocol, yet its status says the host refused)
	for name, refusal := range map[string]reply{
		"refused 409":                     {status: http.StatusConflict, body: []byte(`{"error":{"code":"resource_busy","message":"a test host refuses it","retryable":false,"requestId":"req_probe"}}`)},
		"refused 400 without an envelope": {status: http.StatusBadRequest, body: []byte(`not an envelope`)},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, hostsim.Config{})
			st, cfg := oldQueue(t, h)
			seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
				if method == "POST" {
					return refusal
				}
				return fwd()
			})
			up, d := applyTransition(t, h, cfg, st)
			if len(d) != 1 || d[0].Summary != "Failed to update AtLeastOnceQueue orders" || up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" {
				t.Fatalf("a refused POST: version=%q pending=%q, diagnostics %v; want Failed to update on 0.1.0 with no operation", up.str(aFormDefVersion), up.str(aPendingOp), normalizeDiags(d))
			}
			mustSend(t, seen, 1, 1, "a refused POST", "1 POST and only the readback before it")
		})
	}

	t.Run("500 before the host saw it", func(t *testing.T) {
		t.Parallel()
		h := newHarness(t, hostsim.Config{})
		st, cfg := oldQueue(t, h)
		failing := true
		seen := transitionHost(t, h, func(method string, n int, fwd func() reply) reply {
			if method == "POST" && failing {
				return serverError(t) // never forwarded: hostsim holds nothing of it
			}
			return fwd()
		})
		up, d := applyTransition(t, h, cfg, st)
		wantDiags(t, d, queueTransitionError("Failed to update AtLeastOnceQueue orders",
			"The host refused the Form transition; the resource stays on 0.1.0.",
			"Host: the host's store failed", "req_probe", "internal_error (host, HTTP 500)", false,
			"This is a host fault. Report it to the host operator with the Request id."))
		if up.str(aFormDefVersion) != "0.1.0" || up.str(aPendingOp) != "" {
			t.Fatalf("after a POST the host kept nothing of: version=%q pending=%q; want 0.1.0 with no operation", up.str(aFormDefVersion), up.str(aPendingOp))
		}
		mustSend(t, seen, 1, 2, "the transition", "1 POST, the readback before it and the one after")
		failing = false
		done, d := applyTransition(t, h, cfg, up)
		mustBeCommitted(t, st, done, d)
	})
}

// mustSend fails t unless the transition host saw post POSTs and get readbacks: what
// sent them, and what was wanted, in words.
func mustSend(t *testing.T, seen func(method string) int, post, get int, what, want string) {
	t.Helper()
	if seen("POST") != post || seen("GET") != get {
		t.Errorf("%s sent %d POSTs and %d readbacks; want %s", what, seen("POST"), seen("GET"), want)
	}
}
