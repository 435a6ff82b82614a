package client

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTransitionGenerationIsTheCanonicalSuccessor: the generation a committed transition
// must carry is the expected one plus one, written canonically; an expected
// generation that is not a canonical positive decimal, or has no successor in a
// 64-bit signed integer, has none, and the receipt cannot be checked against it.
func TestTransitionGenerationIsTheCanonicalSuccessor(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want, err string }{
		{"1", "2", ""},
		{"9", "10", ""},
		{"9223372036854775806", "9223372036854775807", ""},
		{"9223372036854775807", "", `generation "9223372036854775807" is not canonical`},
		{"0", "", `generation "0" is not canonical`},
		{"01", "", `generation "01" is not canonical`},
		{"", "", `generation "" is not canonical`},
	} {
		got, err := nextGeneration(c.in)
		if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("nextGeneration(%q) = %q, %v; want %q, %q", c.in, got, err, c.want, c.err)
		}
	}
}

// TestTransitionReceiptAgainstAGenerationWithoutSuccessorNeverVerifies: a kept request
// whose expected generation has no successor verifies no receipt, whatever it says.
func TestTransitionReceiptAgainstAGenerationWithoutSuccessorNeverVerifies(t *testing.T) {
	t.Parallel()
	req := &TxRequest{OperationID: "formtx_" + strings.Repeat("0", 64), Expected: TxExpected{UID: "u-1", Generation: "x"}}
	a := &TxAnswer{Operation: TxOperation{OperationID: req.OperationID}, Proof: &TxProof{OperationID: req.OperationID}, Resource: &Resource{}}
	if err := VerifyCommitted(a, req); err == nil || err.Error() != `generation "x" is not canonical` {
		t.Fatalf("VerifyCommitted with expected generation x: %v; want it refused as not canonical", err)
	}
}

// TestTransitionKeptBytesThatAreNoRequestAreRefused: kept bytes that are not JSON, or
// whose resource carries no spec, rebuild no request (the digests would bind
// nothing the host could check).
func TestTransitionKeptBytesThatAreNoRequestAreRefused(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"not JSON": `{"operationId":`,
		"no spec":  `{"operationId":"formtx_0","resource":{"metadata":{"name":"orders","space":"dev"}}}`,
	} {
		if req, err := ParseKept([]byte(body)); err == nil {
			t.Errorf("%s: ParseKept rebuilt %+v; want an error", name, req)
		}
	}
}

// TestBuildTransitionRefusesASpecWithoutACanonicalForm: a spec whose number has no
// binary64 value has no digest, and no request is built around it (its digests would
// bind what the host can never compute again).
func TestBuildTransitionRefusesASpecWithoutACanonicalForm(t *testing.T) {
	t.Parallel()
	req, err := BuildTransition(TxInput{Marker: "m", Name: "orders", Space: "dev", Spec: map[string]any{"size": json.Number("1e999")}})
	if err == nil || !strings.Contains(err.Error(), "not a finite binary64 value") {
		t.Errorf("BuildTransition = %+v, %v; want the spec's number refused", req, err)
	}
}
