package rules

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
)

// Refusal is one rule violation: the stable wire code to answer with, the JSON Pointer
// of the spec field at fault ("" when the refusal is about no single field) and a
// message that names the pointer, the offending value and what is accepted.
type Refusal struct {
	Code    wire.Code
	Pointer string
	Message string
}

// Error renders the code and message.
func (r *Refusal) Error() string { return string(r.Code) + ": " + r.Message }

// Wire converts the refusal into an error-envelope body. The caller sets RequestID.
// details carries {"field": pointer} when one spec field is at fault (docs/protocol.md#errors).
func (r *Refusal) Wire() *wire.Error {
	e := wire.NewError(r.Code, r.Message)
	if r.Pointer != "" {
		e.Details, _ = json.Marshal(map[string]string{"field": r.Pointer})
	}
	return e
}

// AsRefusal unwraps err into a *Refusal when it is one.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}

func refuse(code wire.Code, pointer, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Pointer: pointer, Message: fmt.Sprintf(format, args...)}
}

func invalid(pointer, format string, args ...any) *Refusal {
	return refuse(wire.CodeInvalidArgument, pointer, format, args...)
}
