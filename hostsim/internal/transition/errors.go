package transition

import (
	"encoding/json"
	"fmt"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/lane"
)

// refuse builds an error envelope body (the lane sets requestId when sending).
func refuse(code wire.Code, hostCode, format string, args ...any) *wire.Error {
	e := wire.NewError(code, fmt.Sprintf(format, args...))
	e.HostCode = hostCode
	return e
}

func invalid(hostCode, format string, args ...any) *wire.Error {
	return refuse(wire.CodeInvalidArgument, hostCode, format, args...)
}

// withField names the spec field at fault in details (as the lane does).
func withField(e *wire.Error, ptr string) *wire.Error {
	if ptr != "" {
		e.Details, _ = json.Marshal(map[string]string{"field": ptr})
	}
	return e
}

// internal is a hostsim failure (a bug or a store failure).
func internal(err error) *wire.Error {
	return refuse(wire.CodeInternalError, "", "hostsim failed internally during a Form transition: %v; this is a hostsim bug, please report it", err)
}

// unknownOp is the readback answer for an unknown operation; under the fault
// transition.readback-wrong it is the Operations code operation_not_found.
func unknownOp(x *lane.Exchange, op string) *wire.Error {
	if x.Lapse("transition.readback-wrong") {
		return refuse(wire.CodeOperationNotFound, "", "operation %s is unknown", op)
	}
	return notFoundOp(op)
}

// notFoundOp is the readback answer for an operation this tenant does not hold here.
func notFoundOp(op string) *wire.Error {
	return refuse(wire.CodeResourceNotFound, "form_transition_operation_not_found",
		"Form transition operation %s is not known for this resource (never posted, or posted by another tenant or for another resource); POST the request to start it", op)
}
