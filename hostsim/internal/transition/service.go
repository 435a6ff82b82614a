package transition

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/lane"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Service is the Form-transition service the lane routes to (lane.Transitions).
type Service struct {
	st  *store.Store
	ack time.Duration
	// exit ends the process at a transition.exit point; nil (no file
	// database) makes transition.exit act as transition.crash.
	exit func(code int)
}

// ExitStatus is the process exit status at a transition.exit point.
const ExitStatus = 3

// New creates the service's tables in st. ackDeadline is the backend
// acknowledgement deadline of the readback (transitions.md §6); exit is
// called at a transition.exit point (nil: act as a crash).
func New(st *store.Store, ackDeadline time.Duration, exit func(code int)) (*Service, error) {
	if err := st.Extend(schema, tables...); err != nil {
		return nil, err
	}
	return &Service{st: st, ack: ackDeadline, exit: exit}, nil
}

// Claim answers the lane: the transition claim held on uid, or nil.
func (s *Service) Claim(q store.Q, uid string) (*lane.Claim, error) {
	m, err := getMark(q, uid)
	if err != nil || m.ClaimOp == "" {
		return nil, err
	}
	return &lane.Claim{OperationID: m.ClaimOp, Since: m.ClaimSince, ReadbackPath: m.ClaimPath}, nil
}

// Post answers POST …/{name}/form-transitions (transitions.md §5).
func (s *Service) Post(x *lane.Exchange) {
	p, e := parse(x)
	if e != nil {
		x.SendError(e)
		return
	}
	s.answer(x, s.post(x, p))
}

// Readback answers GET …/{name}/form-transitions/{operationId} (§6).
func (s *Service) Readback(x *lane.Exchange) {
	space, e := spaceQuery(x)
	if e != nil {
		x.SendError(e)
		return
	}
	if len(x.Body()) > 0 {
		x.SendError(invalid("", "the readback takes no body"))
		return
	}
	op := x.Param("txid")
	if !validOperationID(op) {
		x.SendError(unknownOp(x, op))
		return
	}
	row, err := getOp(s.st.DB(), x.Tenant(), op)
	if err != nil {
		x.SendError(internal(err))
		return
	}
	group := x.Param("group") + "/" + x.Param("version")
	if row == nil || row.Space != space || row.APIVersion != group || row.Kind != x.Param("kind") || row.Name != x.Param("name") {
		x.SendError(unknownOp(x, op))
		return
	}
	s.answer(x, s.resolve(x, row.Tenant, op, true))
}

// answer is what a request ends with.
type answer struct {
	status int
	body   []byte
	etag   string
	err    *wire.Error
	crash  *crash // the request is aborted (or the process exits) instead
}

func (s *Service) answer(x *lane.Exchange, a answer) {
	switch {
	case a.crash != nil:
		if a.crash.exit && s.exit != nil {
			fmt.Fprintf(os.Stderr, "hostsim: exiting at Form transition point %s of %s (fault transition.exit)\n", a.crash.point, a.crash.op)
			s.exit(ExitStatus)
		}
		x.Drop()
	case a.err != nil:
		x.SendError(a.err)
	default:
		x.Send(a.status, a.body, a.etag)
	}
}

func fail(e *wire.Error) answer { return answer{err: e} }

// opView is the closed operation object of transitions.md §7.
type opView struct {
	OperationID       string `json:"operationId"`
	Status            string `json:"status"`
	DispatchAttempted bool   `json:"dispatchAttempted"`
	RequestDigest     string `json:"requestDigest"`
	ReconcilePath     string `json:"reconcilePath"`
}

func view(r *opRow, status string) opView {
	return opView{OperationID: r.OperationID, Status: status, DispatchAttempted: r.DispatchAttempted,
		RequestDigest: r.RequestDigest, ReconcilePath: ReadbackPath(r.APIVersion, r.Kind, r.Name, r.Space, r.OperationID)}
}

// pending is the 202 of an unresolved operation (prepared or indeterminate).
func pending(r *opRow, status string) answer {
	b, _ := json.Marshal(map[string]opView{"operation": view(r, status)})
	return answer{status: 202, body: b}
}

// stored answers a terminal operation from the ledger.
func stored(r *opRow) answer {
	if r.Status == statusCommitted {
		return answer{status: 200, body: r.Receipt, etag: r.ReceiptETag}
	}
	var e wire.Error
	if err := json.Unmarshal(r.Rejection, &e); err != nil {
		return fail(internal(fmt.Errorf("the stored rejection of %s does not decode: %v", r.OperationID, err)))
	}
	return fail(&e)
}

func (r *opRow) request() (*Request, error) {
	var q Request
	err := json.Unmarshal(r.Request, &q)
	return &q, err
}

func (r *opRow) what() string {
	return fmt.Sprintf("%s %q in space %q", r.Kind, r.Name, r.Space)
}
