package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// laneHost answers the discovery and an empty support listing of each of lanes
// to any token, and records what each request carried (scripted).
func laneHost(t *testing.T, lanes ...*wire.Lane) (*httptest.Server, *[]sent) {
	t.Helper()
	return scripted(t, func(w http.ResponseWriter, r *http.Request) { answerLanes(w, r, lanes...) })
}

// markTransport marks every request it carries (X-Extra: transport).
type markTransport struct{}

func (markTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Extra", "transport")
	return http.DefaultTransport.RoundTrip(r)
}

// Each check gets what the run's configuration says: a client per credential
// given (and none for one not given), the poll pause (20ms unless set), its
// deadline, a space of its own; the run reports its lane, its checks' time,
// calls Started once with the host and its lane, and sends every request
// through a configured Transport.
func TestRunHandsEachCheckItsConfiguration(t *testing.T) {
	srv, reqs := laneHost(t, wire.DefaultLane)
	type seen struct {
		alt, other string
		pause      time.Duration
		left       time.Duration
		space      string
	}
	var got []seen
	record := Check{ID: "record", Area: AreaDiscovery, Run: func(ctx context.Context, p *Probe) error {
		s := seen{pause: p.pollPause, space: p.Space}
		if p.Alt != nil {
			s.alt = p.Alt.Label
		}
		if p.Other != nil {
			s.other = p.Other.Label
		}
		if d, ok := ctx.Deadline(); ok {
			s.left = time.Until(d)
		}
		got = append(got, s)
		time.Sleep(25 * time.Millisecond)
		return nil
	}}
	var started []string
	rep, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "p", Alternate: "a", OtherTenant: "o",
		Checks: []Check{record}, Transport: markTransport{},
		Started: func(host string, l *wire.Lane) { started = append(started, host+" "+l.APIVersion) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].alt != "alternate" || got[0].other != "other-tenant" || got[0].pause != 20*time.Millisecond ||
		got[0].left <= 50*time.Second || got[0].left > 60*time.Second || !strings.HasPrefix(got[0].space, "conformance-") {
		t.Errorf("with every credential the check got %+v; want both clients, a 20ms pause, a 60s deadline and a conformance- space", got)
	}
	if rep.Lane != wire.DefaultLane.APIVersion || rep.Checks[0].DurationMs < 25 {
		t.Errorf("the report says lane %q and %d ms; want %s and at least the check's 25 ms", rep.Lane, rep.Checks[0].DurationMs, wire.DefaultLane.APIVersion)
	}
	if want := srv.URL + " " + wire.DefaultLane.APIVersion; len(started) != 1 || started[0] != want {
		t.Errorf("Started was called with %q; want once with %q", started, want)
	}
	if !slices.ContainsFunc(*reqs, func(s sent) bool { return s.extra == "transport" }) {
		t.Error("no request went through the configured Transport")
	}
	got = nil
	if _, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "p", Checks: []Check{record},
		PollPause: 5 * time.Millisecond, Timeout: 3 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].alt != "" || got[0].other != "" || got[0].pause != 5*time.Millisecond || got[0].left > 3*time.Second {
		t.Errorf("with one credential, a 5ms pause and a 3s timeout the check got %+v", got)
	}
}

// A host that serves both lanes is measured on the lane of the runner's
// catalog; a catalog of a lane the host does not serve, and a failing
// AfterSurface, stop the run before any check.
func TestRunTakesTheLaneOfItsCatalog(t *testing.T) {
	other := wire.V1alpha3
	both, _ := laneHost(t, wire.DefaultLane, other)
	otherCat, err := catalog.EmbeddedLane(other)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	count := Check{ID: "count", Area: AreaDiscovery, Run: func(context.Context, *Probe) error { ran++; return nil }}
	rep, err := Run(context.Background(), Config{Endpoint: both.URL, Primary: "p", Catalog: otherCat, Checks: []Check{count}})
	if err != nil || rep.Lane != other.APIVersion {
		t.Fatalf("a host of both lanes, with a catalog of %s: %v, lane %v", other.APIVersion, err, rep)
	}
	one, _ := laneHost(t, wire.DefaultLane)
	if _, err := Run(context.Background(), Config{Endpoint: one.URL, Primary: "p", Catalog: otherCat, Checks: []Check{count}}); err == nil ||
		!strings.Contains(err.Error(), "but the runner's catalog speaks "+other.Describe()) {
		t.Errorf("a catalog of a lane the host does not serve: %v; want the run refused naming both lanes", err)
	}
	boom := errors.New("faults not armed")
	if _, err := Run(context.Background(), Config{Endpoint: one.URL, Primary: "p", Checks: []Check{count},
		AfterSurface: func(context.Context) error { return boom }}); !errors.Is(err, boom) {
		t.Errorf("a failing AfterSurface: %v; want its error", err)
	}
	if ran != 1 {
		t.Errorf("checks ran %d times; want once, in the one run that started", ran)
	}
}

// A run-level need names what to pass; a --space prefix is checked as the
// spaces made from it, "<prefix>-<run>-<n>".
func TestUnmetNeedsAndSpacePrefix(t *testing.T) {
	p := &Probe{S: &Surface{Features: map[string]bool{}}}
	for n, want := range map[Need]string{NeedAlternate: "--alternate-token-env", NeedOtherTenant: "--other-tenant-token-env",
		NeedProbes: "--conformance-probes", NeedTransitions: "resource_form_transition"} {
		if got := unmet(n, p); !strings.Contains(got, want) {
			t.Errorf("need %v unmet: %q; want it to name %s", n, got, want)
		}
	}
	p = &Probe{Alt: &Client{}, Other: &Client{}, S: &Surface{Probes: true, Features: map[string]bool{"resource_form_transition": true}}}
	for _, n := range []Need{NeedAlternate, NeedOtherTenant, NeedProbes, NeedTransitions} {
		if got := unmet(n, p); got != "" {
			t.Errorf("need %v met, yet unmet says %q", n, got)
		}
	}
	// the longest space of a run: the prefix, "-", 6 hex digits, "-" and the last check's number
	room := wire.MaxSpaceIDRunes - len("-000000-") - len(strconv.Itoa(len(Table())))
	long := strings.Repeat("a", room+1)
	if err := ValidSpacePrefix(long); err == nil || !strings.Contains(err.Error(), "a space name has at most 255") {
		t.Errorf("a prefix one character too long for the run's last space: %v; want it refused", err)
	}
	if err := ValidSpacePrefix(long[:room]); err != nil {
		t.Errorf("a prefix whose longest space fits: %v", err)
	}

}
