package selftest

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
)

// Options configure one self-test.
type Options struct {
	Hostsim string           // the binary (see FindHostsim)
	Catalog *catalog.Catalog // the runner's catalog (hostsim's built-in one by default)
	// CatalogDir, when set, is the directory Catalog was loaded from; hostsim
	// serves it too (--catalog), so runner and host agree on the family.
	CatalogDir string
	Out        io.Writer // where the positive run and the matrix are printed
	Only       []string  // restrict the positive run and the negative matrix to these ids (all when empty)
	// OtherLanes are lanes (wire.Lane names) the positive suite also runs on, against
	// hostsim full --lane NAME with the project's catalog of that lane; the negative
	// matrix runs on the lane of Catalog only (docs/guides/conformance.md).
	OtherLanes []string
}

// OtherLanes are the names of every lane but cat's: the lanes `conformance selftest`
// runs the positive suite on besides cat's own unless told otherwise.
func OtherLanes(cat *catalog.Catalog) []string {
	var out []string
	for _, l := range wire.Lanes() {
		if l != cat.Lane() {
			out = append(out, l.Name)
		}
	}
	return out
}

// NegativeResult is one row of the negative matrix.
type NegativeResult struct {
	ID      string
	Neg     conformance.Negative
	Result  conformance.Result
	Caught  bool   // the check failed with the expected fragment
	Moot    bool   // the check is not-applicable against full, so its negative measures nothing
	Verdict string // one line for the matrix
}

// Outcome is the whole self-test.
type Outcome struct {
	Positive  *conformance.Report
	Lanes     map[string]*conformance.Report // the positive run on each of Options.OtherLanes
	Negatives []NegativeResult
	Elapsed   time.Duration
}

// OK reports whether the positive run had no fail or error and every negative was caught.
func (o *Outcome) OK() bool {
	if o.Positive == nil || !o.Positive.OK() {
		return false
	}
	for _, r := range o.Lanes {
		if !r.OK() {
			return false
		}
	}
	for _, n := range o.Negatives {
		if !n.Caught && !n.Moot {
			return false
		}
	}
	return true
}

func tokens(cfg *conformance.Config) {
	cfg.Primary, cfg.Alternate, cfg.OtherTenant = TokenPrimary, TokenAlternate, TokenOtherTenant
}

// Run runs the positive suite against hostsim `full`, then every check against its
// negative, printing both.
func Run(ctx context.Context, o Options) (*Outcome, error) {
	start := time.Now()
	out := &Outcome{}
	sim, err := startHost(ctx, o.Hostsim, "full", o.hostArgs()...)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Out, "== positive run: every check against hostsim full (%s)\n", sim.URL)
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: o.Catalog, Space: "selftest", Only: o.Only,
		Progress: func(r conformance.Result) { fmt.Fprintln(o.Out, r.Line()) }}
	tokens(&cfg)
	out.Positive, err = conformance.Run(ctx, cfg)
	defer sim.Stop() // the negatives on profile full run on it too, reset before each
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(o.Out, out.Positive.Summary.Line())
	for _, lane := range o.OtherLanes {
		if out.Lanes == nil {
			out.Lanes = map[string]*conformance.Report{}
		}
		if out.Lanes[lane], err = runLane(ctx, o, lane); err != nil {
			return nil, err
		}
	}
	fmt.Fprintln(o.Out, "== negative matrix: every check against the host that must fail it")
	if err := runNegatives(ctx, o, out, sim); err != nil {
		return nil, err
	}
	caught, moot, notIsolated := 0, 0, 0
	for _, n := range out.Negatives {
		if n.Caught {
			caught++
			if n.Neg.Wanted != "" {
				notIsolated++
			}
		}
		if n.Moot {
			moot++
		}
	}
	out.Elapsed = time.Since(start)
	fmt.Fprintf(o.Out, "%d of %d negatives caught at their rule (%d of them not isolated), %d not measurable (%s)\n", caught, len(out.Negatives)-moot, notIsolated, moot, out.Elapsed.Round(time.Millisecond))
	return out, nil
}

// runLane runs the positive suite against hostsim full speaking lane, with the
// project's catalog of that lane.
func runLane(ctx context.Context, o Options, lane string) (*conformance.Report, error) {
	l, err := wire.LaneNamed(lane)
	if err != nil {
		return nil, fmt.Errorf("self-test: %w", err)
	}
	cat, err := catalog.EmbeddedLane(l)
	if err != nil {
		return nil, err
	}
	sim, err := startHost(ctx, o.Hostsim, "full", "--lane", lane)
	if err != nil {
		return nil, err
	}
	defer sim.Stop()
	fmt.Fprintf(o.Out, "== positive run on lane %s: every check against hostsim full --lane %s (%s)\n", lane, lane, sim.URL)
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "selftest-" + lane, Only: o.Only,
		Progress: func(r conformance.Result) { fmt.Fprintln(o.Out, r.Line()) }}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Out, "lane %s: %s\n", lane, rep.Summary.Line())
	return rep, nil
}

func runNegatives(ctx context.Context, o Options, out *Outcome, full *Sim) error {
	negs := conformance.Negatives()
	type negative struct {
		id string
		n  conformance.Negative
	}
	byProfile := map[string][]negative{}
	var missing, onCatalog []string
	positive := map[string]conformance.Status{}
	for _, r := range out.Positive.Checks {
		positive[r.ID] = r.Status
	}
	for _, c := range conformance.Table() {
		if len(o.Only) > 0 && !contains(o.Only, c.ID) {
			continue
		}
		n := negs[c.ID]
		if n.Catalog != "" {
			onCatalog = append(onCatalog, c.ID)
			continue
		}
		if positive[c.ID] == conformance.StatusNotApplicable {
			nr := NegativeResult{ID: c.ID, Neg: n, Moot: true,
				Verdict: fmt.Sprintf("n/a %s: not-applicable against hostsim full with this catalog, so its negative measures nothing", c.ID)}
			out.Negatives = append(out.Negatives, nr)
			fmt.Fprintln(o.Out, nr.Verdict)
			continue
		}
		if n.Missing {
			missing = append(missing, c.ID)
			continue
		}
		for _, n := range conformance.NegativesOf(c.ID) { // the first, then each further one
			byProfile[n.Profile] = append(byProfile[n.Profile], negative{c.ID, n})
		}
	}
	profiles := make([]string, 0, len(byProfile))
	for p := range byProfile {
		profiles = append(profiles, p)
	}
	sort.Strings(profiles)
	for _, prof := range profiles {
		sim := full // the positive run's host: started alike, reset before each negative
		if prof != full.Profile {
			var err error
			if sim, err = startHost(ctx, o.Hostsim, prof, o.hostArgs()...); err != nil {
				return err
			}
		}
		for _, neg := range byProfile[prof] {
			nr, err := runNegative(ctx, o, sim, neg.id, neg.n)
			if err != nil {
				if sim != full {
					sim.Stop()
				}
				return err
			}
			out.Negatives = append(out.Negatives, nr)
			fmt.Fprintln(o.Out, nr.Verdict)
		}
		if sim != full {
			sim.Stop()
		}
	}
	for _, id := range onCatalog {
		nr, err := runOnTestCatalog(ctx, o, id, negs[id])
		if err != nil {
			return err
		}
		out.Negatives = append(out.Negatives, nr)
		fmt.Fprintln(o.Out, nr.Verdict)
	}
	for _, id := range missing {
		n := negs[id]
		nr := NegativeResult{ID: id, Neg: n, Verdict: fmt.Sprintf("MISSING %s: hostsim offers no fault that breaks it; wanted %s", id, n.Wanted)}
		out.Negatives = append(out.Negatives, nr)
		fmt.Fprintln(o.Out, nr.Verdict)
	}
	return nil
}

// runOnTestCatalog runs a check whose negative names a test catalog: hostsim
// serves that catalog (the runner reads the same one), the check must pass
// there first, then fail under the negative's faults.
func runOnTestCatalog(ctx context.Context, o Options, id string, n conformance.Negative) (NegativeResult, error) {
	dir, err := os.MkdirTemp("", "conformance-catalog-")
	if err != nil {
		return NegativeResult{}, err
	}
	defer os.RemoveAll(dir)
	cat, err := testCatalog(n.Catalog, dir)
	if err != nil {
		return NegativeResult{}, err
	}
	sim, err := startHost(ctx, o.Hostsim, n.Profile, "--catalog", dir)
	if err != nil {
		return NegativeResult{}, err
	}
	defer sim.Stop()
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "catalog-positive", Only: []string{id}}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		return NegativeResult{}, err
	}
	for _, r := range rep.Checks {
		if r.ID == id && r.Status != conformance.StatusPass {
			return NegativeResult{ID: id, Neg: n, Result: r,
				Verdict: fmt.Sprintf("NOT PROVEN %s: on the test catalog %s it must pass first, got %s", id, n.Catalog, r.Line())}, nil
		}
	}
	o.Catalog = cat
	return runNegative(ctx, o, sim, id, n)
}

// testCatalog writes the named test catalog to dir and loads it.
func testCatalog(name, dir string) (*catalog.Catalog, error) {
	switch name {
	case conformance.CatalogTwoGroups:
		cat, _, err := catalogtest.TwoGroups(dir)
		return cat, err
	case conformance.CatalogSecondDefinitions:
		cat, _, err := catalogtest.SecondDefinitions(dir)
		return cat, err
	}
	return nil, fmt.Errorf("the self-test knows no test catalog %q", name)
}

func runNegative(ctx context.Context, o Options, sim *Sim, id string, n conformance.Negative) (NegativeResult, error) {
	if err := sim.Reset(ctx); err != nil {
		return NegativeResult{}, err
	}
	arm := func(ctx context.Context) error {
		for _, f := range n.Faults {
			if err := sim.ArmFault(ctx, f); err != nil {
				return err
			}
		}
		return nil
	}
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: o.Catalog, Space: "negative", Only: []string{id}}
	if n.BeforeSurface {
		if err := arm(ctx); err != nil {
			return NegativeResult{}, err
		}
	} else {
		cfg.AfterSurface = arm
	}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	nr := NegativeResult{ID: id, Neg: n}
	where := "profile " + n.Profile
	if n.Catalog != "" {
		where += ", test catalog " + n.Catalog
	}
	if len(n.Faults) > 0 {
		where += ", fault " + strings.Join(n.Faults, " + ")
	}
	if n.BeforeSurface {
		where += ", armed before the surface read"
	}
	if err != nil {
		nr.Verdict = fmt.Sprintf("NOT RUN %s [%s]: %v", id, where, err)
		return nr, nil
	}
	for _, r := range rep.Checks {
		if r.ID == id {
			nr.Result = r
		}
	}
	nr.Caught = caughtAtRule(n, nr.Result)
	switch {
	case nr.Caught && n.Wanted != "":
		nr.Verdict = fmt.Sprintf("caught %s [%s] (%d ms), NOT ISOLATED: it fails before its rule; wanted %s", id, where, nr.Result.DurationMs, n.Wanted)
	case nr.Caught:
		nr.Verdict = fmt.Sprintf("caught %s [%s] (%d ms)", id, where, nr.Result.DurationMs)
	case nr.Result.Status == conformance.StatusFail && strings.Contains(nr.Result.Message, n.Fragment):
		nr.Verdict = fmt.Sprintf("NOT CAUGHT AT ITS RULE %s [%s]: the failure is an earlier request's error status: %s", id, where, nr.Result.Line())
	default:
		nr.Verdict = fmt.Sprintf("NOT CAUGHT %s [%s]: expected fail containing %q, got %s", id, where, n.Fragment, nr.Result.Line())
	}
	return nr, nil
}

// earlierStatus matches a failure where a request that had to succeed got an error
// status: a setup step, not the rule the check measures.
var earlierStatus = regexp.MustCompile(`expected 2\d\d( or 2\d\d)?, got [45]\d\d`)

// caughtAtRule reports whether a negative's result is the failure of the rule it
// measures: status fail, the row's fragment in the message, and, for a negative that
// claims to isolate its rule (no Wanted), not an earlier request's error status
// unless the fragment itself names that refused success as the rule.
func caughtAtRule(n conformance.Negative, r conformance.Result) bool {
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, n.Fragment) {
		return false
	}
	if n.Wanted != "" || earlierStatus.MatchString(n.Fragment) {
		return true
	}
	return !earlierStatus.MatchString(r.Message)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (o Options) hostArgs() []string {
	if o.CatalogDir == "" {
		return nil
	}
	return []string{"--catalog", o.CatalogDir}
}
