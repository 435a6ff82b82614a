// Package lane serves the forms.takoform.com/v1alpha3 lane (host-api.md) over
// hostsim's store, profile and fault table.
package lane

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Principal is what a bearer token maps to.
type Principal struct {
	Token     string `json:"token"`
	Tenant    string `json:"tenant"`
	Principal string `json:"principal"`
}

// DefaultTokens are hostsim.md §4's credentials.
var DefaultTokens = []Principal{
	{"sim-primary", "tenant-a", "alice"},
	{"sim-alternate", "tenant-a", "bob"},
	{"sim-other-tenant", "tenant-b", "carol"},
}

// Options configure a Server.
type Options struct {
	Host        *profile.Host
	Store       *store.Store
	Armory      *fault.Armory
	Journal     *Journal
	Tokens      []Principal
	Probes      bool
	Logger      *slog.Logger
	Now         func() time.Time
	RetryAfter  int           // seconds on pending polls
	PrepareLife time.Duration // lifetime of a minted prepareDigest
	RecordLife  time.Duration // lifetime of idempotency records
	Seed        int64         // non-zero: reproducible uids and operation ids
	Transitions Transitions   // Form transitions (internal/transition); nil = not served
}

// Server answers the lane.
type Server struct {
	Options
	tokens map[string]Principal
	table  []route
	ids    *seeded
	gone   goneUID // the last deleted uid, for the fault uid.reuse
	// inflight counts mutations in flight under the fault mutation.exclusive.
	inflight atomic.Int64
}

// New builds a Server.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.PrepareLife == 0 {
		o.PrepareLife = 15 * time.Minute
	}
	if o.RecordLife == 0 {
		o.RecordLife = 24 * time.Hour
	}
	s := &Server{Options: o, tokens: map[string]Principal{}, table: routes()}
	if o.Seed != 0 {
		s.ids = newSeeded(o.Seed)
	}
	for _, t := range o.Tokens {
		s.tokens[t.Token] = t
	}
	return s
}

// newID returns prefix + 20 random hex characters.
func newID(prefix string) string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

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
	body   []byte
	status int
	// kind and name scope faults; set from the path or the body.
	kind, name string
	fires      []*fault.Armed
}

// ServeHTTP answers one lane request (the admin API is routed elsewhere).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.Now()
	c := &call{s: s, w: w, r: r, ctx: r.Context(), id: newID("req_")}
	if err := c.serve(); err != nil {
		c.fail(err)
	}
	c.flushFires()
	name := "unrouted"
	if c.rt != nil {
		name = c.rt.name
	}
	s.Logger.Info("request", "requestId", c.id, "tenant", c.who.Tenant, "method", r.Method,
		"route", name, "status", c.status, "duration", time.Since(start))
	if s.Journal != nil {
		s.Journal.Request(c.who.Tenant, r.Method, name, r.URL.EscapedPath(), c.status, c.rt != nil && c.rt.support)
	}
}

func (c *call) serve() *apiError {
	if err := c.authenticate(); err != nil {
		c.w.Header().Set("WWW-Authenticate", "Bearer")
		return err
	}
	if err := c.readProbe(); err != nil {
		return err
	}
	rt, params, err := match(c.s.table, c.r.Method, c.escapedPath())
	if err != nil {
		return err
	}
	c.rt, c.params = rt, params
	c.kind, c.name = params["kind"], params["name"]
	if err := c.requestFaults(); err != nil {
		return err
	}
	if err := c.segmentGrammars(); err != nil {
		return err
	}
	if rt.query == queryNone && (c.r.URL.RawQuery != "" || c.r.URL.ForceQuery) {
		return invalid("route %s takes no query string; remove %q", rt.name, "?"+c.r.URL.RawQuery)
	}
	if rt.keyed {
		if err := c.idempotencyKeySyntax(); err != nil {
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

// readBody reads at most 8 MiB; GET and HEAD bodies are ignored.
func (c *call) readBody() *apiError {
	if c.r.Method == http.MethodGet || c.r.Method == http.MethodHead || c.r.Body == nil {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(c.r.Body, maxBody+1))
	if err != nil {
		return invalid("the request body could not be read: %v", err)
	}
	if len(b) > maxBody {
		return invalid("the request body exceeds hostsim's 8 MiB limit for JSON requests")
	}
	c.body = b
	return nil
}

const maxBody = 8 << 20

// send writes a JSON (or empty) answer.
func (c *call) send(status int, body []byte, etag string) {
	c.flushFires()
	h := c.w.Header()
	if etag != "" {
		h.Set("ETag", etag)
	}
	if body != nil {
		h.Set("Content-Type", "application/json")
	}
	c.status = status
	c.w.WriteHeader(status)
	if body != nil {
		_, _ = c.w.Write(body)
	}
}

func (c *call) fail(e *apiError) {
	if c.faultOn("errors.retryable-wrong") {
		e.invertRetryable = true
	}
	status, body := e.envelope(c.id)
	c.w.Header().Del("ETag")
	c.send(status, body, "")
}

// segmentGrammars checks {kind} and {name} (host-api.md §5.1).
func (c *call) segmentGrammars() *apiError {
	if k, ok := c.params["kind"]; ok && !validKind(k) {
		return invalid("path segment kind %q must match ^[A-Z][A-Za-z0-9]{0,63}$", k)
	}
	if n, ok := c.params["name"]; ok && !validName(n) {
		return invalid("path segment name %q must match ^[a-z][a-z0-9-]{0,62}$", n)
	}
	if id, ok := c.params["id"]; ok && !strings.HasPrefix(id, "op_") {
		return fail("operation_not_found", "operation %q is unknown (operation ids start with op_)", id)
	}
	return nil
}
