// Package lane serves the lane of its catalog (docs/protocol.md#lanes) over hostsim's
// store, profile and faults (docs/protocol.md). A handler is thin: it parses
// the request, loads what a decision needs, asks the decision (internal/decide,
// internal/related), stores the outcome and renders the answer
// (internal/render). Other rooms serve their own routes through the small
// Call each declares (rooms.go): Form transitions internal/transition,
// artifacts internal/artifactroute, operation polls internal/operationroute,
// discovery and support internal/surface.
package lane

import (
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/idempotency"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/surface"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// Principal is what a bearer token maps to.
type Principal struct {
	Token     string `json:"token"`
	Tenant    string `json:"tenant"`
	Principal string `json:"principal"`
}

// DefaultTokens are hostsim's default credentials (docs/protocol.md#auth).
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
	Journal     *journal.Journal
	Related     *related.G
	Renderer    *render.Renderer
	Engine      *lifecycle.Engine
	Records     *idempotency.Records // the idempotency records (docs/protocol.md#idempotency)
	Surface     *surface.Surface
	Transitions *transition.Service // nil = Form transitions not served
	Tokens      []Principal
	Probes      bool
	Logger      *slog.Logger
	Now         func() time.Time
	RetryAfter  int // seconds on pending polls
}

// Server answers the lane.
type Server struct {
	Options
	tokens map[string]Principal
	table  []route
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
	s := &Server{Options: o, tokens: map[string]Principal{}, table: routes(o.Host.Cat.Lane())}
	for _, t := range o.Tokens {
		s.tokens[t.Token] = t
	}
	return s
}

// ServeHTTP answers one lane request (the admin API is routed elsewhere).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.Now()
	c := &call{s: s, w: w, r: r, ctx: r.Context(), id: decide.NewRequestID()}
	c.fs = s.Armory.Request(c.id, "", "")
	defer c.closeDropped() // last: after the journal entry (drop)
	defer func() {
		if v := recover(); v != nil {
			_ = c.fs.Flush(s.Store, s.Now) // the firings of a request that panicked still count
			panic(v)                       // answered by the recover middleware (hostsim.go)
		}
	}()
	if err := c.serve(); err != nil {
		c.fail(err)
	}
	_ = c.fs.Flush(s.Store, s.Now)
	name := "unrouted"
	if c.rt != nil {
		name = c.rt.name
	}
	if s.Journal != nil {
		s.Journal.Request(c.who.Tenant, r.Method, name, c.escaped(), c.journalKey(), c.status, c.rt != nil && c.rt.support)
	}
	// The answer is complete: the client need not wait for the log line. Only an
	// answer framed by Content-Length is flushed early: flushing one without a body
	// would send it chunked (framing_test.go).
	if c.status != 0 && w.Header().Get("Content-Length") != "" {
		flush(w)
	}
	if h := s.Logger.Handler(); h.Enabled(c.ctx, slog.LevelInfo) {
		now, took := time.Now(), time.Since(start)
		if rl, ok := h.(requestLogger); ok && rl.Request(now, c.id, c.who.Tenant, r.Method, name, c.status, took) {
			return
		}
		// The record goes to the handler directly: Logger.LogAttrs would also walk
		// the stack for a source position no handler of hostsim prints.
		rec := slog.NewRecord(now, slog.LevelInfo, "request", 0)
		rec.AddAttrs(slog.String("requestId", c.id), slog.String("tenant", c.who.Tenant), slog.String("method", r.Method),
			slog.String("route", name), slog.Int("status", c.status), slog.Duration("duration", took))
		_ = h.Handle(c.ctx, rec)
	}
}

// requestLogger is a log handler that writes the request line itself, as it
// would write the record above (reqlog.Handler, the text log of hostsim serve);
// it reports false for a line it leaves to the record.
type requestLogger interface {
	Request(t time.Time, id, tenant, method, route string, status int, d time.Duration) bool
}

// flush sends what w buffered, when w (or what it wraps) can.
func flush(w http.ResponseWriter) {
	_ = http.NewResponseController(innermost(w)).Flush()
}

// innermost is the writer under w's wrappers (each with an Unwrap method).
func innermost(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// journalKey is the Idempotency-Key the journal records for a keyed route
// (at most the 255 characters the grammar allows; docs/protocol.md#headers).
func (c *call) journalKey() string {
	if c.rt == nil || !c.rt.keyed {
		return ""
	}
	k := c.key()
	if len(k) > 255 {
		k = k[:255]
	}
	return k
}
