package wire

import (
	"strings"
	"testing"
)

func TestCodeTableIsClosedAndComplete(t *testing.T) {
	codes := Codes()
	if len(codes) != 26 {
		t.Fatalf("the lane has 26 codes, table holds %d", len(codes))
	}
	retryable := map[Code]bool{CodeResourceBusy: true, CodeBackendUnavailable: true, CodeRateLimited: true, CodeDeadlineExceeded: true}
	seen := map[Code]bool{}
	for _, c := range codes {
		if seen[c] {
			t.Errorf("code %s listed twice", c)
		}
		seen[c] = true
		status, retry, ok := CodeInfo(c)
		if !ok || status < 400 || status > 599 {
			t.Errorf("CodeInfo(%s) = %d, %v, %v", c, status, retry, ok)
		}
		if retry != retryable[c] {
			t.Errorf("CodeInfo(%s) retryable = %v, want %v", c, retry, retryable[c])
		}
	}
	for code, want := range map[Code]int{CodeInvalidArgument: 400, CodeUnauthenticated: 401, CodeFormUnknown: 404,
		CodeFormUnavailable: 409, CodeUnsupportedCapability: 422, CodeRateLimited: 429, CodeInternalError: 500,
		CodeBackendUnavailable: 503, CodeDeadlineExceeded: 504, CodeRevisionConflict: 412, CodeGenerationConflict: 412,
		CodePolicyDenied: 403, CodeArtifactInvalid: 400, CodeArtifactMissing: 404} {
		if got := code.Status(); got != want {
			t.Errorf("%s status %d, want %d", code, got, want)
		}
	}
	for _, gone := range []Code{"resource_version_conflict", "interface_identity_ambiguous", "interface_instance_ambiguous", ""} {
		if _, _, ok := CodeInfo(gone); ok || gone.Known() {
			t.Errorf("code %q must not exist in this lane", gone)
		}
	}
}

func TestNewErrorAndEnvelope(t *testing.T) {
	e := NewError(CodeBackendUnavailable, "backend down; retry later")
	if !e.Retryable || e.Status() != 503 {
		t.Errorf("NewError = %+v", e)
	}
	e.RequestID = "req_1"
	if s := e.Error(); !strings.Contains(s, "backend_unavailable") || !strings.Contains(s, "req_1") {
		t.Errorf("Error() = %q", s)
	}
	if NewError(CodeInvalidArgument, "x").Retryable {
		t.Errorf("invalid_argument must not be retryable")
	}
}

func TestParseErrorEnvelope(t *testing.T) {
	good := `{"error":{"code":"generation_conflict","message":"fence 1 is stale","requestId":"req_9","retryable":false}}`
	e, err := ParseErrorEnvelope(412, []byte(good))
	if err != nil || e.Code != CodeGenerationConflict || e.RequestID != "req_9" {
		t.Fatalf("ParseErrorEnvelope = %+v, %v", e, err)
	}
	for name, tc := range map[string]struct {
		status int
		body   string
	}{
		"unknown code":         {400, `{"error":{"code":"teapot","message":"m","requestId":"r","retryable":false}}`},
		"wrong status":         {400, good},
		"retryable on a final": {400, `{"error":{"code":"invalid_argument","message":"m","requestId":"r","retryable":true}}`},
		"extra member":         {412, `{"error":{"code":"generation_conflict","message":"m","requestId":"r","retryable":false,"x":1}}`},
		"missing requestId":    {412, `{"error":{"code":"generation_conflict","message":"m","retryable":false}}`},
		"empty hostCode":       {412, `{"error":{"code":"generation_conflict","message":"m","requestId":"r","retryable":false,"hostCode":""}}`},
		"duplicate member":     {412, `{"error":{"code":"generation_conflict","code":"generation_conflict","message":"m","requestId":"r","retryable":false}}`},
		"not an envelope":      {404, `<html>`},
	} {
		if _, err := ParseErrorEnvelope(tc.status, []byte(tc.body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
