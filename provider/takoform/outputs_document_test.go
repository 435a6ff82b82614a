package takoform

import (
	"encoding/json"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// TestOutputsThatAreNotAnObjectFailEachDeclaredOutput: status.outputs present but not
// a JSON object cannot be read; each output the recorded ref declares fails, each
// written null, and outputs_json keeps what the host sent.
func TestOutputsThatAreNotAnObjectFailEachDeclaredOutput(t *testing.T) {
	t.Parallel()
	host := endpointsThrough(t)
	for _, sent := range []string{`["https://a.example/"]`, `"https://a.example/"`, `null`} {
		t.Run(sent, func(t *testing.T) {
			st, d, w := host.create(t, func(res map[string]any) {
				res["status"].(map[string]any)["outputs"] = json.RawMessage(sent)
			})
			const problem = "cannot be read because status.outputs is not a JSON object"
			wantDiags(t, d, w.unusableOutput("hostname", problem), w.unusableOutput("port", problem), w.unusableOutput("url", problem))
			for _, out := range []string{"hostname", "url", "port"} {
				if st == nil || !st[out].IsNull() {
					t.Errorf("%s must be written null", out)
				}
			}
			if st == nil || st.str(aUID) == "" || st.str(aOutputsJSON) != sent {
				t.Errorf("want the state written with outputs_json %s; got %v", sent, st)
			}
		})
	}
}

// TestFormWithoutOutputsStillNeedsAStatus: a Form that declares no outputs reads
// nothing from status.outputs, but an answer without status is still unusable: the
// write fails once, naming the resource, the pointer /status and the code.
func TestFormWithoutOutputsStillNeedsAStatus(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	answerRewriter(t, h, "orders", func(res map[string]any) { delete(res, "status") })
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Host response for AtLeastOnceQueue orders is not usable",
		"The representation has no status, so neither its conditions nor its observed generation can be read. This is a fault of the host's answer, not of the configuration.",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /status",
		"Code: takoform.provider/host-response-invalid",
		"Retryable: no",
		"",
		"The host's answer breaks the protocol, so the provider will not guess a remedy. Check the host (and any proxy in front of it)."))
	if st == nil || st.str(aUID) == "" || st.str(aOutputsJSON) != "{}" {
		t.Errorf("the state must still be written, outputs_json {}; got %v", st)
	}
}

// TestFormWithoutOutputsIgnoresMembersItDoesNotDeclare: members the recorded ref does
// not declare are not an error; outputs_json still holds the whole document.
func TestFormWithoutOutputsIgnoresMembersItDoesNotDeclare(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	answerRewriter(t, h, "orders", func(res map[string]any) {
		res["status"].(map[string]any)["outputs"] = map[string]any{"endpoint": "https://q.example/"}
	})
	st := h.create(queueType, cfg)
	if st.str(aOutputsJSON) != `{"endpoint":"https://q.example/"}` {
		t.Errorf("outputs_json = %s, want the whole document", st.str(aOutputsJSON))
	}
}
