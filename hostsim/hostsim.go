// Package hostsim is a Takoform host that speaks the lane of its catalog
// (forms.takoform.com/v1beta1 by default, v1alpha3 when chosen; docs/protocol.md#lanes)
// and can be told to be partial (profiles) and to misbehave on purpose
// (faults). Embed it in tests with New and Handler, or run cmd/hostsim.
package hostsim

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/synthetic"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/admin"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/dashboard"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/idempotency"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/lane"
	"github.com/takokit/takokit/hostsim/internal/lifecycle"
	"github.com/takokit/takokit/hostsim/internal/openapi"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/sqldb"
	"github.com/takokit/takokit/hostsim/internal/store"
	"github.com/takokit/takokit/hostsim/internal/surface"
	"github.com/takokit/takokit/hostsim/internal/transition"
)

// Profile is a merged profile document (docs/guides/partial-hosts.md).
type Profile = profile.Profile

// Token maps a bearer token to (tenant, principal).
type Token = lane.Principal

// FaultSpec is one fault object (docs/protocol.md#faults).
type FaultSpec = fault.Spec

// TokenError is a token of a list that cannot stand: at Index, an empty token,
// tenant or principal (First is -1), or the token listed at First again, so which
// principal it stood for would depend on the order. The tokens are secrets, so it
// names places only.
type TokenError struct{ Index, First int }

func (e *TokenError) Error() string {
	if e.First < 0 {
		return fmt.Sprintf("Config.Tokens[%d]: token, tenant and principal must be non-empty", e.Index)
	}
	return fmt.Sprintf("Config.Tokens[%d] repeats the token of Config.Tokens[%d]; a token stands for one principal of one tenant", e.Index, e.First)
}

// CheckTokens refuses what New refuses of Config.Tokens, as a *TokenError (the
// CLI names the places in its --tokens file).
func CheckTokens(tokens []Token) error {
	first := map[string]int{}
	for i, t := range tokens {
		if t.Token == "" || t.Tenant == "" || t.Principal == "" {
			return &TokenError{Index: i, First: -1}
		}
		if j, dup := first[t.Token]; dup {
			return &TokenError{Index: i, First: j}
		}
		first[t.Token] = i
	}
	return nil
}

// DefaultTokens are hostsim's default credentials (docs/protocol.md#auth).
func DefaultTokens() []Token { return append([]Token(nil), lane.DefaultTokens...) }

// Config configures a Host. The zero value is a `full` host over the built-in
// catalog with a private in-memory database.
type Config struct {
	Profile    string           // built-in profile name or profile file; "" = full
	ProfileDoc *Profile         // a parsed profile; wins over Profile
	Catalog    *catalog.Catalog // nil = the built-in catalog of Lane
	// Lane is the lane to speak; nil = the catalog's (the default lane for the
	// built-in catalog). A catalog whose own documents chose another lane is refused.
	Lane   *wire.Lane
	DBPath string // "" = private in-memory database; else also FILE.databases/ (docs/protocol.md#migrations)
	// ConformanceProbes honours Takoform-Conformance-Probe and installs the synthetic
	// definitions a conformance run asks for beside the catalog (catalog/synthetic).
	ConformanceProbes bool
	AckDeadline       time.Duration    // backend acknowledgement deadline of Form transitions (0 = none)
	Tokens            []Token          // nil = DefaultTokens
	AdminToken        string           // when set, the admin API requires this bearer
	Logger            *slog.Logger     // nil = discard
	RetryAfter        int              // seconds on pending polls; 0 = 1
	Clock             func() time.Time // nil = time.Now (tests move time to expire prepares)
	Seed              int64            // non-zero: reproducible uids and operation ids
	// MigrationTimeout bounds one SQLite migration file's SQL (0 = 10s,
	// docs/protocol.md#migrations).
	MigrationTimeout time.Duration
	// StreamWriteTimeout bounds one write to a dashboard live stream: a browser
	// that stops reading is dropped after it (0 = 10s). It never blocks the host.
	StreamWriteTimeout time.Duration
	// Exit ends the process at a transition.exit fault point (cmd/hostsim:
	// os.Exit). nil, or no DBPath, makes transition.exit act as transition.crash.
	Exit func(code int)
	// Version is the build version GET /_sim/health reports; "" = "dev".
	Version string
}

// Host is one running simulator.
type Host struct {
	cfg     Config
	st      *store.Store
	lane    *lane.Server
	admin   *admin.API
	ui      *dashboard.UI
	journal *journal.Journal
	state   *hostview.Source
	echo    *echo.Echo
	profile *Profile
}

// LoadProfile returns the merged built-in or file profile.
func LoadProfile(ref string) (*Profile, error) { return profile.Load(ref) }

// New builds a Host; nothing is listening until Handler is served.
func New(cfg Config) (*Host, error) {
	cat, err := hostCatalog(cfg.Catalog, cfg.Lane)
	if err != nil {
		return nil, err
	}
	if cfg.ConformanceProbes {
		if cat, err = synthetic.Extend(cat); err != nil {
			return nil, fmt.Errorf("install the synthetic conformance definitions: %w", err)
		}
	}
	prof := cfg.ProfileDoc
	if prof == nil {
		name := cfg.Profile
		if name == "" {
			name = "full"
		}
		if prof, err = profile.Load(name); err != nil {
			return nil, err
		}
	}
	if err := prof.CheckCatalog(cat); err != nil {
		return nil, err
	}
	if err := CheckTokens(cfg.Tokens); err != nil {
		return nil, err
	}
	st, err := store.Open(cfg.DBPath)
	if err != nil {
		return nil, err
	}
	if err := st.Extend(artifact.Schema, artifact.Tables...); err != nil {
		st.Close()
		return nil, err
	}
	armory, err := fault.NewArmory(context.Background(), st, prof.Faults)
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("arm the profile's faults: %w", err)
	}
	tokens := cfg.Tokens
	if tokens == nil {
		tokens = DefaultTokens()
	}
	retry := cfg.RetryAfter
	if retry == 0 {
		retry = 1
	}
	clock := cfg.Clock
	if clock == nil {
		clock = time.Now
	}
	exit := cfg.Exit
	if cfg.DBPath == "" {
		exit = nil
	}
	host := profile.Resolve(prof, cat)
	g := related.New(host)
	g.Databases = sqldb.NewRegistry(cfg.DBPath)
	if err := g.Databases.Sweep(func(uid string) (bool, error) { return store.UIDLive(st.DB(), uid) }); err != nil {
		st.Close()
		return nil, fmt.Errorf("read the databases of %s: %w", g.Databases.Location(), err)
	}
	rd := &render.Renderer{Host: host, G: g, Now: clock}
	tr, err := transition.New(transition.Options{Store: st, Host: host, Renderer: rd, Relations: g, Now: clock,
		AckDeadline: cfg.AckDeadline, Exit: exit})
	if err != nil {
		st.Close()
		return nil, err
	}
	j := journal.New(st, clock)
	j.RecordLife, j.PrepareLife = 24*time.Hour, 15*time.Minute
	en := &lifecycle.Engine{Host: host, Related: g, Renderer: rd, Now: clock, PrepareLife: 15 * time.Minute,
		MigrationTimeout: cfg.MigrationTimeout, Mint: lifecycle.NewMinter(cfg.Seed)}
	ln := lane.New(lane.Options{Host: host, Store: st, Armory: armory, Journal: j, Related: g, Renderer: rd,
		Engine: en, Records: &idempotency.Records{Life: j.RecordLife, Now: clock}, Surface: &surface.Surface{Host: host}, Transitions: tr, Tokens: tokens, Probes: cfg.ConformanceProbes, Logger: cfg.Logger,
		RetryAfter: retry, Now: clock})
	src := &hostview.Source{Store: st, Host: host, Armory: armory, Journal: j, Renderer: rd, Engine: en, Ledger: tr, Now: clock,
		DBs: g.Databases}
	ui, err := dashboard.New(src, cfg.AdminToken)
	if err != nil {
		st.Close()
		return nil, err
	}
	if cfg.StreamWriteTimeout > 0 {
		ui.WriteTimeout = cfg.StreamWriteTimeout
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	h := &Host{cfg: cfg, st: st, lane: ln, journal: j, state: src, profile: prof, ui: ui,
		admin: &admin.API{State: src, Token: cfg.AdminToken,
			Health:  admin.Health{Lane: cat.Lane().String(), Version: version, Started: time.Now()},
			OpenAPI: sync.OnceValues(func() ([]byte, error) { return openAPI(cat.Lane(), host) })}}
	h.echo = h.newEcho()
	return h, nil
}

// openAPI is the host's OpenAPI document (docs/protocol.md#openapi): its lane, the Forms
// its profile installs and the admin API.
func openAPI(lane *wire.Lane, host *profile.Host) ([]byte, error) {
	return openapi.Document(lane, host.Forms(), admin.Prefix, admin.Routes())
}

// OpenAPI is the host's OpenAPI document, as GET /_sim/openapi.json answers it.
func (h *Host) OpenAPI() ([]byte, error) { return h.admin.OpenAPI() }

// hostCatalog is the catalog a host serves: cat, or the built-in catalog of lane (the
// default lane when nil), held to lane when both are given (docs/protocol.md#lanes).
func hostCatalog(cat *catalog.Catalog, lane *wire.Lane) (*catalog.Catalog, error) {
	if cat == nil {
		if lane == nil {
			lane = wire.DefaultLane
		}
		c, err := catalog.EmbeddedLane(lane)
		if err != nil {
			return nil, fmt.Errorf("load the built-in catalog of lane %s: %w", lane.Name, err)
		}
		return c, nil
	}
	if lane == nil {
		return cat, nil
	}
	return catalog.ForLane(cat, lane)
}

// Lane is the lane the host speaks.
func (h *Host) Lane() *wire.Lane { return h.state.Host.Cat.Lane() }

// newEcho puts the lane, the admin API and the dashboard behind echo. Routing is hostsim's
// own (the lane routes on the escaped path and has no 405,
// docs/protocol.md#routes), so one Pre middleware dispatches every request.
func (h *Host) newEcho() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Pre(recoverPanics(h.logger()))
	e.Pre(func(echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if r.URL.Path == dashboard.Prefix || strings.HasPrefix(r.URL.Path, dashboard.Prefix+"/") {
				h.ui.ServeHTTP(c.Response(), r)
				return nil
			}
			if r.URL.Path == admin.Prefix || strings.HasPrefix(r.URL.Path, admin.Prefix+"/") {
				h.admin.ServeHTTP(c.Response(), r)
				return nil
			}
			h.lane.ServeHTTP(c.Response(), r)
			return nil
		}
	})
	return e
}

// logger is the configured logger, or one that discards.
func (h *Host) logger() *slog.Logger {
	if h.cfg.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return h.cfg.Logger
}

// Handler serves the lane, discovery, the admin API and the dashboard
// (<admin>/ui/, docs/guides/dashboard.md).
func (h *Host) Handler() http.Handler { return h.echo }

// Profile returns the merged profile in force.
func (h *Host) Profile() *Profile { return h.profile }

// Forms lists the Forms the host installs: the catalog's, through the profile.
func (h *Host) Forms() []*catalog.Form { return h.lane.Host.Forms() }

// State is the host's admin state as typed values (what /_sim serves as JSON).
func (h *Host) State() *State { return h.state }

// State reads a running host's admin state: counters, resources, operations,
// the transition ledger, armed faults, the profile and the journal.
type State = hostview.Source

// StateResource is one stored resource as State lists it.
type StateResource = hostview.Resource

// EndStreams ends the dashboard's live streams. An http.Server's Shutdown
// waits for every connection to go idle, which a live stream never does:
// register it with the server's RegisterOnShutdown.
func (h *Host) EndStreams() { h.ui.End() }

// Close ends the dashboard's streams, flushes the journal and closes the database.
func (h *Host) Close() error {
	h.ui.End()
	h.journal.Close()
	return errors.Join(h.state.DBs.Close(), h.st.Close())
}

// ParseFault reads a fault's text form name[=value][,kind=K][,resource=N][,route=R][,count=N].
func ParseFault(text string) (FaultSpec, error) { return fault.ParseText(text) }

// DescribeProfiles returns one line per built-in profile.
func DescribeProfiles() []string { return profile.Describe() }
