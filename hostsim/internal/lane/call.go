package lane

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/idempotency"
	"github.com/takokit/takokit/hostsim/internal/request"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// call is one request in flight.
type call struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	ctx    context.Context
	id     string
	who    Principal
	rt     *route
	params map[string]string
	probe  string
	path   string // r.URL.EscapedPath(), once asked (escaped)
	body   []byte
	status int
	fs     *fault.Set       // the armed faults, scoped to the request's kind and name
	keying *idempotency.Key // a keyed request's record owner and fingerprint, once decided
	// dropped is the connection a fault took from the answer (drop); ServeHTTP
	// closes it once the request is journaled, as an answer reaches the client
	// only after its journal entry is written.
	dropped net.Conn
}

// serve is the prelude every route shares (docs/protocol.md#order, steps
// 1-6), then the route's handler.
func (c *call) serve() *wire.Error {
	if err := authenticate(c); err != nil {
		c.w.Header().Set(wire.HeaderWWWAuthenticate, "Bearer")
		return err
	}
	if err := readProbe(c); err != nil {
		return err
	}
	rt, params, err := match(c.s.Host.Cat.Lane(), c.s.table, c.r.Method, escapedPath(c))
	if err != nil {
		return err
	}
	c.rt, c.params = rt, params
	c.fs.Route(rt.name)
	c.fs.Scope(params["kind"], params["name"])
	if err := requestFaults(c); err != nil {
		return err
	}
	if err := segmentGrammars(c); err != nil {
		return err
	}
	if rt.query == queryNone && (c.r.URL.RawQuery != "" || c.r.URL.ForceQuery) {
		return decide.Invalid("route %s takes no query string; remove %q", rt.name, "?"+c.r.URL.RawQuery)
	}
	if rt.keyed {
		if err := request.CheckIdempotencyKey(c.r.Header.Values(wire.HeaderIdempotencyKey), rt.name, c.fs); err != nil {
			return err
		}
	}
	if !rt.raw {
		if err := c.readBody(); err != nil {
			return err
		}
	}
	return rt.handle(c)
}

const maxBody = 8 << 20

// Header keys in canonical form, and the one Content-Type of the lane's
// answers (never changed once made).
var (
	contentType   = http.CanonicalHeaderKey(wire.HeaderContentType)
	contentLength = http.CanonicalHeaderKey("Content-Length")
	jsonType      = []string{wire.ContentTypeJSON}
)

// readBody reads at most 8 MiB; GET and HEAD bodies are ignored.
func (c *call) readBody() *wire.Error {
	if c.r.Method == http.MethodGet || c.r.Method == http.MethodHead || c.r.Body == nil {
		return nil
	}
	var b []byte
	var err error
	if n := c.r.ContentLength; n >= 0 && n <= maxBody {
		b = make([]byte, n) // the usual case: read exactly what is announced
		if _, err = io.ReadFull(c.r.Body, b); err == nil {
			var more [1]byte
			if m, _ := c.r.Body.Read(more[:]); m > 0 {
				err = io.ErrUnexpectedEOF
			}
		}
	} else {
		b, err = io.ReadAll(io.LimitReader(c.r.Body, maxBody+1))
	}
	if err != nil {
		return decide.Invalid("the request body could not be read: %v", err)
	}
	if len(b) > maxBody {
		return decide.Invalid("the request body exceeds hostsim's 8 MiB limit for JSON requests")
	}
	c.body = b
	return nil
}

// escaped is the request's escaped path, worked out once: routing and the
// journal both ask for it, and url.URL.EscapedPath escapes the path anew each time.
func (c *call) escaped() string {
	if c.path == "" {
		c.path = c.r.URL.EscapedPath()
	}
	return c.path
}

// requireEmptyBody is for observe, delete, cancel, commit and abandon.
func (c *call) requireEmptyBody() *wire.Error {
	if len(c.body) > 0 {
		return decide.Invalid("route %s takes an empty body; send no bytes", c.rt.name)
	}
	return nil
}

// group is the Form group of the path: {group}/{version}.
func (c *call) group() string { return c.params["group"] + "/" + c.params["version"] }

// key is the request's Idempotency-Key.
func (c *call) key() string { return c.r.Header.Get(wire.HeaderIdempotencyKey) }

// write runs fn in one write transaction with the request's fault firings
// (fault.Set.Write), so a mutation and the faults that shaped it commit together.
func (c *call) write(fn func(q store.Q) error) error {
	return c.fs.Write(c.ctx, c.s.Store, c.s.Now, fn)
}

// send writes a JSON (or empty) answer. A body goes with its length, so the
// answer can leave before the request's log line is written (Server.ServeHTTP).
func (c *call) send(status int, body []byte, etag string) {
	h := c.w.Header()
	if etag != "" {
		h.Set(wire.HeaderETag, etag)
	}
	if body != nil {
		h[contentType] = jsonType
		if c.r.Method != http.MethodHead {
			h[contentLength] = []string{strconv.Itoa(len(body))}
		}
	}
	c.status = status
	c.w.WriteHeader(status)
	if body != nil {
		_, _ = c.w.Write(body)
	}
}

// fail answers a refusal in the error envelope with this request's id.
func (c *call) fail(e *wire.Error) {
	out := *e
	out.RequestID = c.id
	if c.fs.On(fault.ErrorsRetryableWrong) {
		out.Retryable = !out.Retryable
	}
	if c.fs.On(fault.ErrorsRequestIDFixed) {
		out.RequestID = fault.FixedRequestID
	}
	body, _ := json.Marshal(wire.Envelope{Error: &out})
	c.send(out.Code.Status(), body, "") // no ETag: only send sets one, and a call sends once
}

// asRefusal turns an error out of a store transaction back into a refusal.
func asRefusal(err error) *wire.Error {
	if e, ok := err.(*wire.Error); ok {
		return e
	}
	return decide.Internal(err)
}

func marshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
