package takoform

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

// TestOutputsThatAreNotAnObjectFailEachDeclaredOutput: status.outputs present but not
// a JSON object cannot be read; each output the recorded ref declares fails, each
// written null, and outputs_json keeps what the host sent.
func TestOutputsThatAreNotAnObjectFailEachDeclaredOutput(t *testing.T) {
	for _, sent := range []string{`["https://a.example/"]`, `"https://a.example/"`, `null`} {
		t.Run(sent, func(t *testing.T) {
			st, d := applyEndpointThrough(t, func(res map[string]any) {
				res["status"].(map[string]any)["outputs"] = json.RawMessage(sent)
			})
			errs := 0
			for _, x := range d {
				if x.Severity == tfprotov6.DiagnosticSeverityError {
					errs++
				}
			}
			for _, out := range []string{"hostname", "url", "port"} {
				dg := diagWith(d, `unusable output "`+out+`"`, "cannot be read because status.outputs is not a JSON object",
					codeOutputContractViolated, "/status/outputs/"+out)
				if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityError {
					t.Errorf("no error naming output %s:\n%s", out, dump(d))
				}
				if st == nil || !st[out].IsNull() {
					t.Errorf("%s must be written null", out)
				}
			}
			if errs != 3 {
				t.Errorf("%d errors, want one per declared output (3):\n%s", errs, dump(d))
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
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(3600)}
	answerRewriter(t, h, "orders", func(res map[string]any) { delete(res, "status") })
	pr := h.plan(queueType, cfg, nil)
	mustNoError(t, "plan", pr.diags)
	st, d := h.apply(queueType, cfg, nil, pr.planned)
	dg := diagWith(d, "Host response for AtLeastOnceQueue orders is not usable", "has no status", codeHostResponseInvalid, "Pointer: /status")
	if dg == nil || dg.Severity != tfprotov6.DiagnosticSeverityError || len(d) != 1 {
		t.Fatalf("want exactly one host-response-invalid error at /status:\n%s", dump(d))
	}
	if st == nil || st.str(aUID) == "" || st.str(aOutputsJSON) != "{}" {
		t.Errorf("the state must still be written, outputs_json {}; got %v", st)
	}
}

// TestFormWithoutOutputsIgnoresMembersItDoesNotDeclare: members the recorded ref does
// not declare are not an error; outputs_json still holds the whole document.
func TestFormWithoutOutputsIgnoresMembersItDoesNotDeclare(t *testing.T) {
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
