package wire

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Code is one stable error code of the closed table of docs/protocol.md#errors.
type Code string

// The 26 codes of the lane; no other code exists.
const (
	CodeInvalidArgument       Code = "invalid_argument"
	CodeUnauthenticated       Code = "unauthenticated"
	CodePermissionDenied      Code = "permission_denied"
	CodeFormUnknown           Code = "form_unknown"
	CodeFormNotInstalled      Code = "form_not_installed"
	CodeFormUnavailable       Code = "form_unavailable"
	CodeFormIdentityConflict  Code = "form_identity_conflict"
	CodeResourceNotFound      Code = "resource_not_found"
	CodeResourceBusy          Code = "resource_busy"
	CodeImportConflict        Code = "import_conflict"
	CodePolicyDenied          Code = "policy_denied"
	CodeBackendUnavailable    Code = "backend_unavailable"
	CodeInternalError         Code = "internal_error"
	CodeRateLimited           Code = "rate_limited"
	CodeDeadlineExceeded      Code = "deadline_exceeded"
	CodeOperationCancelled    Code = "operation_cancelled"
	CodeOperationNotFound     Code = "operation_not_found"
	CodeDependencyInUse       Code = "dependency_in_use"
	CodeDeletionProtected     Code = "deletion_protected"
	CodeArtifactMissing       Code = "artifact_missing"
	CodeArtifactInvalid       Code = "artifact_invalid"
	CodeUnsupportedCapability Code = "unsupported_capability"
	CodeMigrationRequired     Code = "migration_required"
	CodeUIDMismatch           Code = "uid_mismatch"
	CodeRevisionConflict      Code = "revision_conflict"
	CodeGenerationConflict    Code = "generation_conflict"
)

type codeInfo struct {
	code      Code
	status    int
	retryable bool
}

// codeTable is the closed table in the order of the specification.
var codeTable = []codeInfo{
	{CodeInvalidArgument, http.StatusBadRequest, false},
	{CodeUnauthenticated, http.StatusUnauthorized, false},
	{CodePermissionDenied, http.StatusForbidden, false},
	{CodeFormUnknown, http.StatusNotFound, false},
	{CodeFormNotInstalled, http.StatusConflict, false},
	{CodeFormUnavailable, http.StatusConflict, false},
	{CodeFormIdentityConflict, http.StatusConflict, false},
	{CodeResourceNotFound, http.StatusNotFound, false},
	{CodeResourceBusy, http.StatusConflict, true},
	{CodeImportConflict, http.StatusConflict, false},
	{CodePolicyDenied, http.StatusForbidden, false},
	{CodeBackendUnavailable, http.StatusServiceUnavailable, true},
	{CodeInternalError, http.StatusInternalServerError, false},
	{CodeRateLimited, http.StatusTooManyRequests, true},
	{CodeDeadlineExceeded, http.StatusGatewayTimeout, true},
	{CodeOperationCancelled, http.StatusConflict, false},
	{CodeOperationNotFound, http.StatusNotFound, false},
	{CodeDependencyInUse, http.StatusConflict, false},
	{CodeDeletionProtected, http.StatusConflict, false},
	{CodeArtifactMissing, http.StatusNotFound, false},
	{CodeArtifactInvalid, http.StatusBadRequest, false},
	{CodeUnsupportedCapability, http.StatusUnprocessableEntity, false},
	{CodeMigrationRequired, http.StatusConflict, false},
	{CodeUIDMismatch, http.StatusConflict, false},
	{CodeRevisionConflict, http.StatusPreconditionFailed, false},
	{CodeGenerationConflict, http.StatusPreconditionFailed, false},
}

// CodeInfo returns the HTTP status of code and whether the code may ever be retried.
// ok is false for a code outside the closed table.
func CodeInfo(code Code) (status int, retryable bool, ok bool) {
	for _, c := range codeTable {
		if c.code == code {
			return c.status, c.retryable, true
		}
	}
	return 0, false, false
}

// Codes returns the 26 codes in table order (a fresh slice).
func Codes() []Code {
	out := make([]Code, len(codeTable))
	for i, c := range codeTable {
		out[i] = c.code
	}
	return out
}

// Status returns the code's HTTP status, or 0 for an unknown code.
func (c Code) Status() int { s, _, _ := CodeInfo(c); return s }

// Known reports whether c is one of the 26 codes.
func (c Code) Known() bool { _, _, ok := CodeInfo(c); return ok }

// Error is the body of the error envelope `{"error": {...}}` (docs/protocol.md#errors).
type Error struct {
	Code      Code            `json:"code"`
	Message   string          `json:"message"`
	RequestID string          `json:"requestId"`
	Retryable bool            `json:"retryable"`
	HostCode  string          `json:"hostCode,omitempty"`
	Details   json.RawMessage `json:"details,omitempty"`
}

// Envelope is the closed outer object of every refusal.
type Envelope struct {
	Error *Error `json:"error"`
}

// NewError builds an envelope body whose retryable flag is the most the code allows.
// The caller sets RequestID (hosts mint one per answer).
func NewError(code Code, message string) *Error {
	_, retry, _ := CodeInfo(code)
	return &Error{Code: code, Message: message, Retryable: retry}
}

// Error renders code, message and, when known, the host's request id.
func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Message
	if e.HostCode != "" {
		s += " (hostCode " + e.HostCode + ")"
	}
	if e.RequestID != "" {
		s += " [requestId " + e.RequestID + "]"
	}
	return s
}

// Status is the HTTP status the code carries.
func (e *Error) Status() int { return e.Code.Status() }

// Validate applies the client validity rules of docs/protocol.md#errors to a decoded
// envelope answered with HTTP status. A failure means the answer is protocol-invalid.
func (e *Error) Validate(status int) error {
	want, retry, ok := CodeInfo(e.Code)
	switch {
	case !ok:
		return fmt.Errorf("error code %q is not one of the 26 codes of the lane; treat the answer as protocol-invalid", e.Code)
	case status != 0 && status != want:
		return fmt.Errorf("error code %q came with HTTP %d but the code's status is %d; treat the answer as protocol-invalid", e.Code, status, want)
	case e.Retryable && !retry:
		return fmt.Errorf("error code %q is marked retryable but the code is never retryable; treat the answer as protocol-invalid", e.Code)
	case e.Message == "":
		return fmt.Errorf("error %q has an empty message; the envelope requires one", e.Code)
	case e.RequestID == "":
		return fmt.Errorf("error %q has an empty requestId; the envelope requires one", e.Code)
	}
	return nil
}

// ParseErrorEnvelope decodes a refusal body strictly (closed envelope, I-JSON gate)
// and applies the validity rules for the HTTP status it came with.
func ParseErrorEnvelope(status int, body []byte) (*Error, error) {
	var raw struct {
		Error *struct {
			Code      Code            `json:"code,required"`
			Message   string          `json:"message,required"`
			RequestID string          `json:"requestId,required"`
			Retryable bool            `json:"retryable,required"`
			HostCode  *string         `json:"hostCode"`
			Details   json.RawMessage `json:"details"`
		} `json:"error,required"`
	}
	if err := DecodeStrict(body, &raw); err != nil {
		return nil, fmt.Errorf("error envelope is malformed: %w", err)
	}
	if raw.Error == nil {
		return nil, fmt.Errorf("error envelope member \"error\" is null; the host must send an error object")
	}
	e := &Error{Code: raw.Error.Code, Message: raw.Error.Message, RequestID: raw.Error.RequestID,
		Retryable: raw.Error.Retryable, Details: raw.Error.Details}
	if raw.Error.HostCode != nil {
		if *raw.Error.HostCode == "" {
			return nil, fmt.Errorf("error envelope hostCode is empty; it is omitted or non-empty")
		}
		e.HostCode = *raw.Error.HostCode
	}
	if err := e.Validate(status); err != nil {
		return nil, err
	}
	return e, nil
}
