package client

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// HostError is a complete, valid error envelope (docs/provider-design.md#diagnostics).
type HostError struct {
	Status     int
	Env        *wire.Error
	RetryAfter time.Duration // zero when absent
	// Operation is set when the error is the terminal error of an Operation.
	Operation string
}

func (e *HostError) Error() string {
	return fmt.Sprintf("host refused with %s (HTTP %d): %s", e.Env.Code, e.Status, e.Env.Message)
}

// Code is the envelope code.
func (e *HostError) Code() wire.Code { return e.Env.Code }

// ProtocolError is an answer that breaks the protocol: no retry, no interpretation.
type ProtocolError struct {
	Status    int // 0 when no HTTP status applies
	Reason    string
	RequestID string
}

func (e *ProtocolError) Error() string {
	if e.Status == 0 {
		return "protocol-invalid host response: " + e.Reason
	}
	return fmt.Sprintf("protocol-invalid host response (HTTP %d): %s", e.Status, e.Reason)
}

// TransportError means no complete answer was received: the outcome is unknown.
type TransportError struct {
	Method, URL string
	Err         error
}

func (e *TransportError) Error() string {
	if u, ok := AsUnreachable(e); ok {
		return fmt.Sprintf("%s %s: %s: %s", e.Method, u.Path, u.Headline(), u.Reason)
	}
	return fmt.Sprintf("%s %s: no complete answer from the host: %v", e.Method, e.URL, wire.TransportCause(e.Err))
}
func (e *TransportError) Unwrap() error { return e.Err }

// SupportReadError is a support route that could not be read: the request it stopped
// at (discovery or the route, "GET /path") and why.
type SupportReadError struct {
	Route string
	Err   error
}

func (e *SupportReadError) Error() string { return e.Route + ": " + e.Err.Error() }
func (e *SupportReadError) Unwrap() error { return e.Err }

// AsHost returns the host error in err's chain, if any.
func AsHost(err error) (*HostError, bool) {
	var h *HostError
	ok := errors.As(err, &h)
	return h, ok
}

// IsCode reports whether err is a valid host error with code.
func IsCode(err error, code wire.Code) bool {
	h, ok := AsHost(err)
	return ok && h.Env.Code == code
}

// IsNotFound reports the only answer that means "absent": resource_not_found (HTTP
// 404, which its envelope was validated against). Another 404 (form_unknown,
// operation_not_found, artifact_missing) is a refusal, never an absence.
func IsNotFound(err error) bool { return IsCode(err, wire.CodeResourceNotFound) }

// answeredStatus is the HTTP status a host answered a request with, whether the call
// returned it as resp or as a *HostError or *ProtocolError; 0 when no host answered.
func answeredStatus(resp *Response, err error) int {
	var he *HostError
	var pe *ProtocolError
	switch {
	case err == nil:
		return resp.Status
	case errors.As(err, &he):
		return he.Status
	case errors.As(err, &pe):
		return pe.Status
	}
	return 0
}

// IsTransport reports whether err is a transport failure.
func IsTransport(err error) bool {
	var t *TransportError
	return errors.As(err, &t)
}

// refusal turns a non-2xx answer into a *HostError or a *ProtocolError.
func refusal(resp *Response) error {
	env, err := wire.ParseErrorEnvelope(resp.Status, resp.Body)
	if err != nil {
		reason := err.Error()
		body := bytes.TrimSpace(resp.Body)
		switch {
		case resp.Status >= 500 && len(body) == 0:
			reason = "server error without an error envelope"
		case len(body) == 0:
			reason = "the answer has an empty body, not a JSON error envelope"
		case body[0] != '{': // a web page or a proxy's text: what it is says more than a JSON error
			reason = fmt.Sprintf("the answer is %s, not a JSON error envelope (is the endpoint a Takoform host, or is a proxy answering before it?): %s",
				wire.BodyType(resp.Header), wire.OneLine(body, 120))
		}
		return &ProtocolError{Status: resp.Status, Reason: reason}
	}
	return &HostError{Status: resp.Status, Env: env, RetryAfter: parseRetryAfter(resp.Header.Get(wire.HeaderRetryAfter))}
}

// parseRetryAfter accepts delta-seconds or an HTTP-date; anything else is ignored.
func parseRetryAfter(v string) time.Duration {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		if n > 3600 {
			n = 3600
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
