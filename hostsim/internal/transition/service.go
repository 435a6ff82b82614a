package transition

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/transition/backend"
)

// Renderer serves a resource as the lane does (render.Renderer).
type Renderer interface {
	Render(q store.Q, r *store.Resource, pins []store.Pin, fs *fault.Set) (*render.Representation, error)
}

// Relations resolves a spec's references as an apply does (a refusal: they
// do not resolve; err: the store failed reading them), and re-renders what
// pins a resource after it moved (related.G).
type Relations interface {
	Resolve(q store.Q, f *catalog.Form, tenant, space string, spec map[string]any, fs *fault.Set) (pins []store.Pin, refusal *wire.Error, err error)
	Recompute(q store.Q, tenant, space, apiVersion, kind, name, skip, now string, fs *fault.Set) error
}

// Options configure a Service.
type Options struct {
	Store     *store.Store
	Host      *profile.Host
	Renderer  Renderer
	Relations Relations
	Now       func() time.Time
	// AckDeadline is the backend acknowledgement deadline of the readback.
	AckDeadline time.Duration
	// Exit ends the process at a transition.exit point; nil (no file
	// database) makes transition.exit act as transition.crash.
	Exit func(code int)
}

// Service is the Form-transition service the lane routes to.
type Service struct {
	Options
	st  *store.Store
	ack time.Duration
}

// ExitStatus is the process exit status at a transition.exit point.
const ExitStatus = 3

// New creates the service's tables in o.Store.
func New(o Options) (*Service, error) {
	if err := o.Store.Extend(schema+backend.Schema, tables...); err != nil {
		return nil, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{Options: o, st: o.Store, ack: o.AckDeadline}, nil
}

// Call is one form-transition request after the lane's prelude passed.
type Call struct {
	Ctx               context.Context
	Tenant, Principal string
	// Group, Kind and Name are the path's; OperationID is the readback's {operationId}.
	Group, Kind, Name, OperationID string
	Method                         string
	Header                         http.Header
	RawQuery                       string
	Body                           []byte
	Probe                          string     // the honoured conformance probe, or ""
	Faults                         *fault.Set // the request's armed faults
}

// Answer is what the lane writes back: a body, a refusal, or a dropped connection.
type Answer struct {
	Status int
	Body   []byte
	ETag   string
	Err    *wire.Error
	Drop   bool
}

// Post answers POST …/{name}/form-transitions (docs/protocol.md#transitions).
func (s *Service) Post(c *Call) Answer {
	p, e := parse(s, c)
	if e != nil {
		return Answer{Err: e}
	}
	return s.finish(s.post(c, p))
}

// Readback answers GET …/{name}/form-transitions/{operationId}; it never dispatches.
func (s *Service) Readback(c *Call) Answer {
	space, e := spaceQuery(c)
	if e != nil {
		return Answer{Err: e}
	}
	if len(c.Body) > 0 {
		return Answer{Err: invalid("", "the readback takes no body")}
	}
	op := c.OperationID
	if !wire.ValidTransitionOperationID(op) {
		return Answer{Err: unknownOp(c, op)}
	}
	row, err := s.op(c.Ctx, c.Tenant, op)
	if err != nil {
		return Answer{Err: internal(err)}
	}
	if row == nil || row.Space != space || row.APIVersion != c.Group || row.Kind != c.Kind || row.Name != c.Name {
		return Answer{Err: unknownOp(c, op)}
	}
	return s.finish(s.resolve(c, row.Tenant, op, true))
}

// op reads an operation of the ledger in a read transaction.
func (s *Service) op(ctx context.Context, tenant, id string) (*opRow, error) {
	var row *opRow
	err := s.st.Read(ctx, func(q store.Q) error {
		var err error
		row, err = getOp(q, tenant, id)
		return err
	})
	return row, err
}

// answer is what a step of the algorithm ends with.
type answer struct {
	status int
	body   []byte
	etag   string
	err    *wire.Error
	crash  *crash // the request is aborted (or the process exits) instead
}

// finish turns a step's answer into the lane's; at a transition.exit point
// the process ends here.
func (s *Service) finish(a answer) Answer {
	switch {
	case a.crash != nil:
		if a.crash.exit && s.Exit != nil {
			fmt.Fprintf(os.Stderr, "hostsim: exiting at Form transition point %s of %s (fault transition.exit)\n", a.crash.point, a.crash.op)
			s.Exit(ExitStatus)
		}
		if a.crash.hang != nil {
			fmt.Fprintf(os.Stderr, "%s %s at point %s (fault transition.hang): its write is durable; no answer until the client goes away\n",
				HangMarker, a.crash.op, a.crash.point)
			<-a.crash.hang
		}
		return Answer{Drop: true}
	case a.err != nil:
		return Answer{Err: a.err}
	}
	return Answer{Status: a.status, Body: a.body, ETag: a.etag}
}

func fail(e *wire.Error) answer { return answer{err: e} }

// opView is the closed operation object of a transition answer.
type opView struct {
	OperationID       string `json:"operationId"`
	Status            string `json:"status"`
	DispatchAttempted bool   `json:"dispatchAttempted"`
	RequestDigest     string `json:"requestDigest"`
	ReconcilePath     string `json:"reconcilePath"`
}

func (s *Service) view(r *opRow, status string) opView {
	return opView{OperationID: r.OperationID, Status: status, DispatchAttempted: r.DispatchAttempted,
		RequestDigest: r.RequestDigest, ReconcilePath: s.readbackPath(r)}
}

// pending is the 202 of an unresolved operation (prepared or indeterminate).
func (s *Service) pending(r *opRow, status string) answer {
	b, _ := json.Marshal(map[string]opView{"operation": s.view(r, status)})
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
