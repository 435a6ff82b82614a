// Package lane serves the forms.takoform.com/v1alpha3 lane over hostsim's
// store, profile and faults (docs/protocol.md). A handler is thin: it parses
// the request, loads what a decision needs, asks the decision (internal/core,
// internal/gauntlet), stores the outcome and renders the answer
// (internal/render). Form transitions are served by internal/transition.
package lane

import (
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/gauntlet"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
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
	Gauntlet    *gauntlet.G
	Renderer    *render.Renderer
	Transitions *transition.Service // nil = Form transitions not served
	Tokens      []Principal
	Probes      bool
	Logger      *slog.Logger
	Now         func() time.Time
	RetryAfter  int           // seconds on pending polls
	PrepareLife time.Duration // lifetime of a minted prepareDigest
	RecordLife  time.Duration // lifetime of idempotency records
	Seed        int64         // non-zero: reproducible uids and operation ids
}

// Server answers the lane.
type Server struct {
	Options
	tokens map[string]Principal
	table  []route
	ids    *seeded
	gone   lastGone // the last deleted uid, for the fault uid.reuse
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

// ServeHTTP answers one lane request (the admin API is routed elsewhere).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.Now()
	c := &call{s: s, w: w, r: r, ctx: r.Context(), id: newID("req_")}
	c.fs = s.Armory.Request(c.id, "", "")
	if err := c.serve(); err != nil {
		c.fail(err)
	}
	_ = c.fs.Flush(s.Store, s.Now())
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

// lastGone remembers the last deleted uid (fault uid.reuse).
type lastGone struct {
	mu  sync.Mutex
	uid string
}

func (g *lastGone) set(uid string) { g.mu.Lock(); g.uid = uid; g.mu.Unlock() }

func (g *lastGone) get() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.uid
}
