package conformance

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// RunnerName identifies the runner in reports.
const RunnerName = "takokit-conformance"

// Config is one run.
type Config struct {
	Endpoint    string // bare origin
	Primary     string // token of a principal of tenant A
	Alternate   string // token of a second principal of tenant A ("" = not given)
	OtherTenant string // token of a principal of tenant B ("" = not given)
	Space       string // space prefix; each check gets "<prefix>-<run>-<n>"
	Only, Skip  []string
	Strict      bool
	Catalog     *catalog.Catalog // nil = the project's catalog of the host's lane
	// Lane is the host's lane, learned from its discovery at the start of the run.
	Lane    *wire.Lane
	Checks  []Check       // nil = Table()
	Timeout time.Duration // per check; 0 = 60s
	// PollPause is how long the runner waits between two polls of a pending
	// Operation on top of the Retry-After it carries; 0 = 20ms.
	PollPause time.Duration
	Progress  func(Result) // called after each check, in order
	// Started is called once the host's lane is known, before anything else is read
	// (the command prints the report's first line from it).
	Started func(host string, lane *wire.Lane)
	// AfterSurface runs once the host's surface was read, before the first check
	// (the self-test arms its faults here, so they never break the surface read).
	AfterSurface func(ctx context.Context) error
	// Transport, when set, carries every request of the run (tests record the
	// request sequence through it); nil = the default transport.
	Transport http.RoundTripper
}

// Run runs every selected check against the host. It returns an error only when
// the run cannot start (no discovery, bad configuration).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	checks := cfg.Checks
	if checks == nil {
		checks = Table()
	}
	if err := unknownCheck(checks, append(slices.Clone(cfg.Only), cfg.Skip...)); err != nil {
		return nil, err
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.PollPause == 0 {
		cfg.PollPause = 20 * time.Millisecond
	}
	if cfg.Space == "" {
		cfg.Space = "conformance"
	}
	rep := &Report{Runner: RunnerName, Host: cfg.Endpoint, StartedAt: time.Now().UTC(), ErroredByCause: []CauseGroup{}}
	primary := cfg.client("primary", cfg.Primary)
	var prefer *wire.Lane
	if cfg.Catalog != nil {
		prefer = cfg.Catalog.Lane()
	}
	lane, err := hostLane(ctx, primary, prefer)
	if err != nil {
		return nil, fmt.Errorf("reading what the host claims at %s: %w", cfg.Endpoint, err)
	}
	if cfg.Catalog, err = runCatalog(cfg.Catalog, lane, cfg.Endpoint); err != nil {
		return nil, err
	}
	cfg.Lane, primary.Lane = lane, lane
	rep.Lane = lane.APIVersion
	if cfg.Started != nil {
		cfg.Started(cfg.Endpoint, lane)
	}
	surface, err := readSurface(ctx, primary, cfg.Catalog)
	if err == nil {
		cfg.Catalog, surface, err = withSynthetic(ctx, primary, cfg.Catalog, surface)
	}
	if err != nil {
		return nil, fmt.Errorf("reading what the host claims at %s: %w", cfg.Endpoint, err)
	}
	if cfg.AfterSurface != nil {
		if err := cfg.AfterSurface(ctx); err != nil {
			return nil, err
		}
	}
	runID := randomHex(runIDBytes)
	names, red := runNames(runID), newRedactor(cfg.Primary, cfg.Alternate, cfg.OtherTenant)
	for i, c := range checks {
		res := Result{ID: c.ID, Title: c.Title, Area: c.Area, Requirement: c.Requirement, Anchor: c.ProtocolLink()}
		switch {
		case len(cfg.Only) > 0 && !slices.Contains(cfg.Only, c.ID):
			res.Status, res.Message = StatusSkipped, "not selected by --only"
		case slices.Contains(cfg.Skip, c.ID):
			res.Status, res.Message = StatusSkipped, "skipped by --skip"
		default:
			rec := &recorder{}
			p := &Probe{P: primary.recording(rec), Space: checkSpace(cfg.Space, runID, i+1),
				Cat: cfg.Catalog, S: surface, run: runID, check: i + 1, pollPause: cfg.PollPause}
			if cfg.Alternate != "" {
				p.Alt = cfg.client("alternate", cfg.Alternate).recording(rec)
			}
			if cfg.OtherTenant != "" {
				p.Other = cfg.client("other-tenant", cfg.OtherTenant).recording(rec)
			}
			start := time.Now()
			err := runOne(ctx, cfg.Timeout, c, p)
			res.DurationMs = time.Since(start).Milliseconds()
			v := judge(c.ID, err)
			res.Status = v.Status
			if err != nil {
				res.Message = red.text(err.Error())
			}
			switch {
			case res.Status == StatusNotApplicable && cfg.Strict:
				res.Status, res.Message = StatusFail, "not-applicable under --strict: "+res.Message
			case res.Status == StatusFail || res.Status == StatusError:
				res.Exchange = rec.lastExchange()
				if v.Resp != nil {
					res.Exchange = excerptOf(v.Resp)
				}
				res.Exchange = red.exchange(res.Exchange)
				if res.Status == StatusError {
					res.Cause, res.CauseStep, res.CauseRule = names.ReplaceAllString(red.text(v.Cause), "{name}"), v.Step, v.Rule
				}
			}
		}
		res = rep.add(res)
		if cfg.Progress != nil {
			cfg.Progress(res)
		}
	}
	return rep, nil
}

// client returns a client of the run for one credential.
func (cfg Config) client(label, token string) *Client {
	c := NewClient(cfg.Endpoint, label, token)
	c.Lane = cfg.Lane
	if cfg.Transport != nil {
		c.http.Transport = cfg.Transport
	}
	return c
}

// runOne decides the run-level needs, then runs the check with a deadline,
// turning a panic into an error.
func runOne(ctx context.Context, timeout time.Duration, c Check, p *Probe) (err error) {
	for _, n := range c.Needs {
		if msg := unmet(n, p); msg != "" {
			return notApplicable("%s", msg)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("runner bug in %s: %v (at %s); please report it with this line", c.ID, v, panicSite(debug.Stack()))
		}
	}()
	return c.Run(ctx, p)
}

// unmet says why a run-level need is not met, or "".
func unmet(n Need, p *Probe) string {
	switch n {
	case NeedAlternate:
		if p.Alt == nil {
			return "needs a second principal of the tenant: pass --alternate-token-env"
		}
	case NeedOtherTenant:
		if p.Other == nil {
			return "needs a principal of another tenant: pass --other-tenant-token-env"
		}
	case NeedProbes:
		if !p.S.Probes {
			return "needs the test-only Takoform-Conformance-Probe header, which the host does not honour (hostsim: --conformance-probes)"
		}
	case NeedTransitions:
		if !p.S.Features["resource_form_transition"] {
			return "the host does not advertise the discovery feature resource_form_transition"
		}
	}
	return ""
}

// KnownIDs refuses the first of ids that names no check of the table, as Run does:
// a command line can say so before it starts anything.
func KnownIDs(ids []string) error { return unknownCheck(Table(), ids) }

// unknownCheck refuses the first of ids that names none of checks.
func unknownCheck(checks []Check, ids []string) error {
	for _, id := range ids {
		if !slices.ContainsFunc(checks, func(c Check) bool { return c.ID == id }) {
			return fmt.Errorf("check %q is not in the table; `conformance list` prints the ids", id)
		}
	}
	return nil
}

// ValidSpacePrefix checks a --space prefix: every space a run makes from it,
// "<prefix>-<run id>-<check number>", must be a SpaceID, the longest included.
func ValidSpacePrefix(prefix string) error {
	longest := checkSpace(prefix, strings.Repeat("0", 2*runIDBytes), len(Table()))
	if err := wire.ValidateSpaceID(longest); err != nil {
		return fmt.Errorf("a run names its spaces <prefix>-<%d hex digits>-<check number>, %d characters at most with this prefix, and %w",
			2*runIDBytes, utf8.RuneCountInString(longest), err)
	}
	return nil
}

// runIDBytes is the length of a run's random id, in bytes (twice as many hex digits).
const runIDBytes = 3

// checkSpace is the space of a run's n-th check.
func checkSpace(prefix, runID string, n int) string { return fmt.Sprintf("%s-%s-%d", prefix, runID, n) }

// panicSite returns the first frame of the runner's own code below the panic.
func panicSite(stack []byte) string {
	lines := strings.Split(string(stack), "\n")
	seenPanic := false
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "panic(") {
			seenPanic = true
			continue
		}
		if seenPanic && strings.Contains(l, "/conformance/") && strings.Contains(l, ".go:") {
			if i := strings.LastIndex(l, " +0x"); i > 0 {
				l = l[:i]
			}
			return l
		}
	}
	return "unknown location"
}
