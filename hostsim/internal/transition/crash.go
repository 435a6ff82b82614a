package transition

import (
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lane"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// crash is an armed transition.crash or transition.exit that fired at a point.
type crash struct {
	point, op string
	exit      bool
}

// fire counts one firing of f inside the step's own transaction (so the
// firing is as durable as the write it follows); false when another request
// already spent it.
func fire(x *lane.Exchange, q store.Q, f *fault.Armed, fired *[]*fault.Armed) (bool, error) {
	var n int
	if err := q.QueryRow(`SELECT count(*) FROM faults WHERE id=?`, f.ID).Scan(&n); err != nil || n == 0 {
		return false, err
	}
	if err := x.FireIn(q, f); err != nil {
		return false, err
	}
	*fired = append(*fired, f)
	return true, nil
}

// crashAt fires the first armed transition.exit or transition.crash scoped to
// this request whose value is point.
func crashAt(x *lane.Exchange, q store.Q, point, op string, fired *[]*fault.Armed) (*crash, error) {
	for _, name := range []string{"transition.exit", "transition.crash"} {
		for _, f := range x.ArmedAll(name) {
			if f.Spec.Value != point {
				continue
			}
			ok, err := fire(x, q, f, fired)
			if err != nil {
				return nil, err
			}
			if ok {
				return &crash{point: point, op: op, exit: name == "transition.exit"}, nil
			}
		}
	}
	return nil, nil
}

// rejection is the failure code the backend answers for this request, or "":
// the probe transition-reject on the POST, or an armed transition.reject.
func rejection(x *lane.Exchange, q store.Q, fired *[]*fault.Armed) (string, error) {
	if x.Probe() == "transition-reject" && x.Request().Method == "POST" {
		return "backend_rejected", nil
	}
	for _, f := range x.ArmedAll("transition.reject") {
		ok, err := fire(x, q, f, fired)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		if f.Spec.Value != "" {
			return f.Spec.Value, nil
		}
		return "backend_rejected", nil
	}
	return "", nil
}
