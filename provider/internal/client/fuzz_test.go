package client

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// The fuzz targets feed arbitrary host answers to the provider's decoders. A host is
// outside the provider's trust: whatever it sends, decoding must return a value or an
// error, never panic, and never accept what the checks after it would have refused.

const fuzzResource = `{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"AtLeastOnceQueue",` +
	`"form":{"formRef":{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"AtLeastOnceQueue","definitionVersion":"0.1.0","schemaDigest":"sha256:` + zeros64 + `"}},` +
	`"metadata":{"name":"orders","space":"prod","uid":"u-1","generation":"1","revision":"1"},` +
	`"spec":{"a":1},"status":{"observedGeneration":"1","conditions":[{"type":"Ready","status":"True","reason":"Ready"}],"outputs":{"url":"https://x"}}}`

const zeros64 = "0000000000000000000000000000000000000000000000000000000000000000"

func seedJSON(f *testing.F, extra ...string) {
	for _, s := range append([]string{"", "{}", "null", "[]", `"x"`, "\xff\xfe", strings.Repeat("[", 200), `{"a":1,"a":2}`, `{"a":1e400}`}, extra...) {
		f.Add([]byte(s))
	}
}

func FuzzDecodeResource(f *testing.F) {
	seedJSON(f, fuzzResource, strings.Replace(fuzzResource, `"generation":"1"`, `"generation":"01"`, 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeResource(b)
		if err != nil {
			if r != nil {
				t.Fatalf("an error with a resource: %v", err)
			}
			return
		}
		if err := Verify(r, Expect{Ref: r.Form.FormRef, Name: r.Metadata.Name, Space: r.Metadata.Space}); err == nil {
			if !wire.ValidDecimal(r.Metadata.Generation) || !wire.ValidDecimal(r.Metadata.Revision) || !wire.ValidUID(r.Metadata.UID) || r.Status == nil {
				t.Fatalf("Verify accepted a representation its rules refuse: %s", b)
			}
			_ = VerifyETag(r, []string{`"` + r.Metadata.Revision + `"`})
		}
	})
}

func FuzzDecodeAccepted(f *testing.F) {
	seedJSON(f,
		`{"operation":{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":false}}`,
		`{"operation":{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":true,"result":{"resource":`+fuzzResource+`}}}`,
		`{"operation":{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":true,"error":{"code":"backend_unavailable","message":"m","retryable":true}}}`,
		`{"operation":{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":true,"target":{"uid":"u-1"},"result":{}}}`,
	)
	f.Fuzz(func(t *testing.T, b []byte) {
		op, err := decodeAccepted(b)
		if err != nil {
			return
		}
		if op == nil || !ValidOperationID(op.ID) {
			t.Fatalf("decodeAccepted accepted an operation without a valid id: %s", b)
		}
		_ = op.HostUID()
		if op.Done {
			if op.Error != nil {
				if err := op.TerminalError(); err == nil {
					t.Fatalf("a done operation with an error has no terminal error: %s", b)
				}
			} else {
				_, _ = op.ResultResource()
			}
		}
	})
}

func FuzzDecodeProfile(f *testing.F) {
	seedJSON(f,
		`{"apiVersion":"support.takoform.com/v1alpha1","kind":"FormSupport","operations":["create","read"]}`,
		`{"apiVersion":"support.takoform.com/v1alpha1","kind":"FormSupport","supportedEnums":{"handlers":["fetch"]},"supportedRanges":{"n":{"minimum":1,"maximum":"9"}},"limits":{"maximumHandlers":2}}`,
		`{"apiVersion":"support.takoform.com/v1alpha1","kind":"FormSupport","limits":{"maximumHandlers":1e3}}`,
		`{"apiVersion":"support.takoform.com/v1alpha1","kind":"FormSupport","limits":{"maximumHandlers":-1}}`,
		`{"apiVersion":"support.takoform.com/v1alpha1","kind":"FormSupport","supportedRanges":{"n":{"minimum":[]}}}`,
	)
	f.Fuzz(func(t *testing.T, b []byte) {
		sp, err := decodeProfile(b)
		if err != nil {
			return
		}
		if sp.APIVersion != profileAPIVersion {
			t.Fatalf("accepted a profile of apiVersion %q", sp.APIVersion)
		}
		for k, n := range sp.Limits {
			if strings.HasPrefix(string(n), "-") {
				t.Fatalf("accepted a negative limit %s = %s", k, n)
			}
		}
	})
}

func FuzzErrorEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"error":{"code":"invalid_argument","message":"m","retryable":false,"requestId":"req_1"}}`,
		`{"error":{"code":"backend_unavailable","message":"m","retryable":true,"requestId":"req_1"}}`,
		`{"error":{"code":"invented","message":"m","retryable":false}}`,
		`{"error":null}`, "", "<html>oops</html>", "\xff",
	} {
		f.Add(400, []byte(s), "")
		f.Add(503, []byte(s), "2")
	}
	f.Add(500, []byte(nil), "Wed, 21 Oct 2015 07:28:00 GMT")
	f.Fuzz(func(t *testing.T, status int, b []byte, retryAfter string) {
		if status < 300 || status > 599 {
			return
		}
		h := http.Header{}
		h.Set("Retry-After", retryAfter)
		err := refusal(&Response{Status: status, Header: h, Body: b})
		var he *HostError
		var pe *ProtocolError
		switch {
		case errors.As(err, &he):
			if he.Env.Code.Status() != status {
				t.Fatalf("HTTP %d accepted an envelope whose code %s belongs to %d", status, he.Env.Code, he.Env.Code.Status())
			}
			if he.RetryAfter < 0 {
				t.Fatalf("negative Retry-After %v from %q", he.RetryAfter, retryAfter)
			}
			_ = he.Error()
		case errors.As(err, &pe):
			_ = pe.Error()
		default:
			t.Fatalf("refusal returned %T %v, want a HostError or a ProtocolError", err, err)
		}
	})
}

func FuzzTransitionAnswer(f *testing.F) {
	op := `{"operationId":"formtx_1","status":"committed","dispatchAttempted":true,"requestDigest":"sha256:` + zeros64 + `","reconcilePath":"/apis/forms.takoform.com/v1beta1/resources/x"}`
	for _, s := range []string{
		`{"operation":` + op + `}`,
		`{"operation":` + strings.Replace(op, "committed", "prepared", 1) + `}`,
		`{"operation":` + op + `,"resource":` + fuzzResource + `,"transitionProof":{"operationId":"formtx_1","committed":true}}`,
		`{"operation":{"reconcilePath":"/elsewhere"}}`, "", "{}",
	} {
		f.Add(200, []byte(s))
		f.Add(202, []byte(s))
	}
	f.Fuzz(func(t *testing.T, status int, b []byte) {
		if status < 200 || status > 599 {
			return
		}
		a, err := (&Client{lane: wire.DefaultLane}).txAnswer(&Response{Status: status, Header: http.Header{}, Body: b})
		if err != nil {
			return
		}
		switch a.Status {
		case http.StatusAccepted:
			if a.Resource != nil || a.Proof != nil {
				t.Fatalf("a 202 answer accepted with a resource or proof: %s", b)
			}
		case http.StatusOK:
			if a.Resource == nil || a.Proof == nil || a.Operation.Status != "committed" {
				t.Fatalf("a 200 answer accepted without a committed operation, resource and proof: %s", b)
			}
		default:
			t.Fatalf("txAnswer accepted HTTP %d", a.Status)
		}
	})
}
