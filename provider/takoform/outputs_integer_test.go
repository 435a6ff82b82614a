package takoform

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The WorkerEndpoint 0.2.0 output port is declared integer, 1 to 65535. These tests
// send it through a host that rewrites the create's answer (answerRewriter) and read
// what the user gets: the state and the diagnostics of the apply.

// setOutput returns a rewrite that replaces one member of status.outputs with the
// exact JSON text raw (so 443.0 reaches the provider as written, not re-encoded).
func setOutput(output, raw string) func(map[string]any) {
	return func(res map[string]any) {
		res["status"].(map[string]any)["outputs"].(map[string]any)[output] = json.RawMessage(raw)
	}
}

// written names the resource an output test writes, as its diagnostics do.
type written struct{ kind, name, typeName, form string }

var (
	apiEdge = written{"WorkerEndpoint", "api-edge", "takoform_worker_endpoint", "edge.forms.takokit.dev/v1beta1 WorkerEndpoint@0.2.0"}
	gadgetG = written{"Gadget", "g", "takoform_gadget", "example.forms.takokit.dev/v1alpha1 Gadget@0.2.0"}
)

// unusableOutput is the error a write of w gets when the host answered output
// unusable; problem completes `Output "<output>" ...`.
func (w written) unusableOutput(output, problem string) diagnostic {
	return errorDiag(w.kind+" "+w.name+`: host returned an unusable output "`+output+`"`,
		`Output "`+output+`" `+problem+`. The attribute is written null and the write fails, so the null does not read as "not assigned yet". This is a fault of the host's answer, not of the configuration.`,
		"",
		"Resource: "+w.typeName+" (dev/"+w.name+")",
		"Form: "+w.form+" schema=<sha256-1>",
		"Pointer: /status/outputs/"+output,
		"Code: takoform.provider/output-contract-violated",
		"Retryable: no",
		"",
		"Report the answer to the host operator; refresh or apply again once the host returns the declared output.").at(output)
}

// mustRefuseOutput asserts that the write failed for exactly one output of
// the WorkerEndpoint w, with the error a user reads (unusableOutput), that the
// output is written null and that the other declared outputs and the rest of the
// state are still written.
func mustRefuseOutput(t *testing.T, w written, st values, d []*tfprotov6.Diagnostic, output, problem string) {
	t.Helper()
	wantDiags(t, d, w.unusableOutput(output, problem))
	if st == nil || st.str(aUID) == "" {
		t.Fatalf("the rest of the state must be written; got %v", st)
	}
	if !st[output].IsNull() {
		t.Errorf("%s = %v, want null after the violation", output, st[output])
	}
	for _, o := range []string{"hostname", "url", "port"} {
		if o != output && st[o].IsNull() {
			t.Errorf("%s is null: one unusable output must not cost the others", o)
		}
	}
}

// TestIntegerOutputIsAValueNotASpelling: "integer" in the outputSchema is a value, so a
// host that writes 443 as 443.0 or 4.43e2 answers validly and the state gets 443;
// the declared bounds are inclusive.
func TestIntegerOutputIsAValueNotASpelling(t *testing.T) {
	t.Parallel()
	host := endpointsThrough(t)
	for _, c := range []struct {
		sent string
		want int64
	}{
		{"443.0", 443}, {"4.43e2", 443}, {"1", 1}, {"65535", 65535},
	} {
		t.Run(c.sent, func(t *testing.T) {
			st, d, _ := host.create(t, setOutput("port", c.sent))
			mustNoError(t, "apply", d)
			if !st["port"].Equal(i64(c.want)) {
				t.Errorf("port = %v, want %d", st["port"], c.want)
			}
			var doc map[string]any
			if err := json.Unmarshal([]byte(st.str(aOutputsJSON)), &doc); err != nil || doc["port"] != float64(c.want) {
				t.Errorf("outputs_json = %s, want port %d in it", st.str(aOutputsJSON), c.want)
			}
		})
	}
}

// TestIntegerOutputOutsideItsDeclarationFailsTheWrite: out of range on either side, a
// fraction, a whole number no Int64 holds, and every other JSON type each fail the
// write naming port and saying what the host sent.
func TestIntegerOutputOutsideItsDeclarationFailsTheWrite(t *testing.T) {
	t.Parallel()
	host := endpointsThrough(t)
	for _, c := range []struct{ sent, problem string }{
		{"0", "is 0, outside the declared range 1 to 65535"},
		{"65536", "is 65536, outside the declared range 1 to 65535"},
		{"443.5", "was declared integer and the host sent the number 443.5, which is not a whole number a 64-bit integer holds"},
		{"9223372036854775808", "was declared integer and the host sent the number 9223372036854775808, which is not a whole number a 64-bit integer holds"},
		{`"443"`, `was declared integer and the host sent the string "443"`},
		{"true", "was declared integer and the host sent the boolean true"},
		{"[443]", "was declared integer and the host sent an array"},
		{`{"https":443}`, "was declared integer and the host sent an object"},
		{"null", "is null"},
	} {
		t.Run(strings.Trim(c.sent, `"[]{}`), func(t *testing.T) {
			st, d, w := host.create(t, setOutput("port", c.sent))
			mustRefuseOutput(t, w, st, d, "port", c.problem)
		})
	}
}
