package lane

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// apiError is a refusal on its way to the wire envelope.
type apiError struct {
	code      wire.Code
	msg       string
	field     string // JSON Pointer into spec when one field is at fault
	hostCode  string
	retryable *bool
	// invertRetryable renders the opposite retryable (fault errors.retryable-wrong).
	invertRetryable bool
}

func (e *apiError) Error() string { return string(e.code) + ": " + e.msg }

func fail(code wire.Code, format string, args ...any) *apiError {
	return &apiError{code: code, msg: fmt.Sprintf(format, args...)}
}

func invalid(format string, args ...any) *apiError {
	return fail(wire.CodeInvalidArgument, format, args...)
}

func notFound(format string, args ...any) *apiError {
	return fail(wire.CodeResourceNotFound, format, args...)
}

func (e *apiError) at(field string) *apiError { e.field = field; return e }

// envelope renders the error body with requestId.
func (e *apiError) envelope(requestID string) (int, []byte) {
	w := wire.NewError(e.code, e.msg)
	w.RequestID = requestID
	w.HostCode = e.hostCode
	if e.retryable != nil {
		w.Retryable = *e.retryable && w.Retryable
	}
	if e.invertRetryable {
		w.Retryable = !w.Retryable
	}
	if e.field != "" {
		w.Details, _ = json.Marshal(map[string]string{"field": e.field})
	}
	b, _ := json.Marshal(wire.Envelope{Error: w})
	return w.Status(), b
}

// opError renders the error member of a terminal Operation (no requestId).
func (e *apiError) opError() map[string]any {
	_, retry, _ := wire.CodeInfo(e.code)
	out := map[string]any{"code": e.code, "message": e.msg, "retryable": retry}
	if e.hostCode != "" {
		out["hostCode"] = e.hostCode
	}
	return out
}

// internal wraps an unexpected failure (a hostsim bug or a store failure).
func internal(err error) *apiError {
	return fail(wire.CodeInternalError, "hostsim failed internally: %v; this is a hostsim bug, please report it", err)
}
