package conformance

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// Failure means the host is non-conformant: the message names the request, what
// was expected and what came back.
type Failure struct {
	Msg  string
	Code wire.Code // the host's error code, when the failure is a refused answer
}

func (f *Failure) Error() string { return f.Msg }

// NotApplicable means the host does not claim what the check needs.
type NotApplicable struct{ Msg string }

func (n *NotApplicable) Error() string { return n.Msg }

// failf returns a Failure.
func failf(format string, args ...any) error { return &Failure{Msg: fmt.Sprintf(format, args...)} }

// notApplicable returns a NotApplicable.
func notApplicable(format string, args ...any) error {
	return &NotApplicable{Msg: fmt.Sprintf(format, args...)}
}

// classify maps a check's return value to its status. Anything that is neither a
// Failure nor NotApplicable (transport errors, runner setup problems) is an error.
func classify(err error) Status {
	var f *Failure
	var n *NotApplicable
	switch {
	case err == nil:
		return StatusPass
	case errors.As(err, &f):
		return StatusFail
	case errors.As(err, &n):
		return StatusNotApplicable
	default:
		return StatusError
	}
}

// rawJSON keeps a member's bytes undecoded (strict decoding skips it).
type rawJSON = json.RawMessage

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
