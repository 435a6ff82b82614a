package transition

import (
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

// refuse is decide.Refuse with a hostCode (the lane sets requestId when it answers).
func refuse(code wire.Code, hostCode, format string, args ...any) *wire.Error {
	e := decide.Refuse(code, format, args...)
	e.HostCode = hostCode
	return e
}

// invalid is invalid_argument with a hostCode.
func invalid(hostCode, format string, args ...any) *wire.Error {
	return refuse(wire.CodeInvalidArgument, hostCode, format, args...)
}

// internal is a hostsim failure (a bug or a store failure).
func internal(err error) *wire.Error {
	return refuse(wire.CodeInternalError, "", "%s", decide.InternalText(" during a Form transition", err))
}

// unknownOp is the readback answer for an unknown operation.
func unknownOp(c *Call, op string) *wire.Error {
	if c.Faults.On(fault.TransitionReadbackWrong) {
		return refuse(wire.CodeOperationNotFound, "", "operation %s is unknown", op)
	}
	return notFoundOp(op)
}

// notFoundOp is the readback answer for an operation this tenant does not hold here.
func notFoundOp(op string) *wire.Error {
	return refuse(wire.CodeResourceNotFound, "form_transition_operation_not_found",
		"Form transition operation %s is not known for this resource (never posted, or posted by another tenant or for another resource); POST the request to start it", op)
}
