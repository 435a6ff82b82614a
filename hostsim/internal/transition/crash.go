package transition

import "github.com/takokit/takokit/hostsim/internal/fault"

// crash is an armed transition.exit or transition.crash that fired at a point.
type crash struct {
	point, op string
	exit      bool
}

// crashAt is the crash point after a step's durable write (A-E), asked inside
// that step's transaction so the firing commits with the write: the process
// exits there (transition.exit) or the request is aborted (transition.crash).
func crashAt(c *Call, point, op string) *crash {
	at := func(v string) bool { return v == point }
	if _, ok := c.Faults.Where(fault.TransitionExit, at); ok {
		return &crash{point: point, op: op, exit: true}
	}
	if _, ok := c.Faults.Where(fault.TransitionCrash, at); ok {
		return &crash{point: point, op: op}
	}
	return nil
}

// rejection is the failure code the backend answers for this request, or "":
// the probe transition-reject on the POST, or an armed transition.reject.
func rejection(c *Call) string {
	if c.Probe == "transition-reject" && c.Method == "POST" {
		return "backend_rejected"
	}
	if v, ok := c.Faults.Value(fault.TransitionReject); ok {
		if v != "" {
			return v
		}
		return "backend_rejected"
	}
	return ""
}
