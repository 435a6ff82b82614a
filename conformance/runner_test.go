package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// bareHost answers discovery and an empty support listing of the default lane
// to the token "good" (401 to any other); everything else is 404.
func bareHost(t *testing.T) *httptest.Server {
	t.Helper()
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		answerLanes(w, r, wire.DefaultLane)
	})
	return srv
}

// answerLanes answers the discovery and an empty support listing of each of
// lanes; everything else is 404.
func answerLanes(w http.ResponseWriter, r *http.Request, lanes ...*wire.Lane) {
	w.Header().Set("Content-Type", "application/json")
	for _, l := range lanes {
		switch r.URL.Path {
		case l.DiscoveryPath:
			_, _ = w.Write([]byte(`{"api_versions":["` + l.APIVersion + `"],"features":{"support_profiles":true},"endpoints":{"api":"http://` + r.Host + l.APIRoot + `"}}`))
			return
		case l.APIRoot + "/support/forms":
			_, _ = w.Write([]byte(`{"profiles":[]}`))
			return
		}
	}
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(`{"error":{"code":"resource_not_found","message":"no route","requestId":"req_1","retryable":false}}`))
}

func fakeChecks() []Check {
	return []Check{
		{ID: "passes", Area: AreaDiscovery, Run: func(context.Context, *Probe) error { return nil }},
		{ID: "fails", Area: AreaDiscovery, Run: func(context.Context, *Probe) error { return failf("GET /x: expected 200, got 500") }},
		{ID: "errors", Area: AreaCatalog, Run: func(context.Context, *Probe) error { return errors.New("dial tcp: refused") }},
		{ID: "panics", Area: AreaCatalog, Run: func(context.Context, *Probe) error { panic("boom") }},
		{ID: "needs-probes", Area: AreaErrors, Needs: []Need{NeedProbes}, Run: func(context.Context, *Probe) error { return nil }},
		{ID: "needs-tenant", Area: AreaTenancy, Needs: []Need{NeedOtherTenant}, Run: func(context.Context, *Probe) error { return nil }},
		{ID: "picks-nothing", Area: AreaTenancy, Run: func(_ context.Context, p *Probe) error { _, err := p.simpleForm(); return err }},
		{ID: "skipped", Area: AreaTenancy, Run: func(context.Context, *Probe) error { return nil }},
		{ID: "spaces", Area: AreaTenancy, Run: func(_ context.Context, p *Probe) error {
			if !strings.HasPrefix(p.Space, "conformance-") || p.Name("a") == p.Name("a") {
				return failf("space %q or names are not fresh", p.Space)
			}
			return nil
		}},
	}
}

func TestRunStatuses(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	srv := bareHost(t)
	var lines []string
	rep, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "good", Catalog: cat, Checks: fakeChecks(),
		Skip: []string{"skipped"}, Progress: func(r Result) { lines = append(lines, r.Line()) }})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Status{"passes": StatusPass, "fails": StatusFail, "errors": StatusError, "panics": StatusError,
		"needs-probes": StatusNotApplicable, "needs-tenant": StatusNotApplicable, "picks-nothing": StatusNotApplicable,
		"skipped": StatusSkipped, "spaces": StatusPass}
	for _, r := range rep.Checks {
		if r.Status != want[r.ID] {
			t.Errorf("%s: status %s (%s), want %s", r.ID, r.Status, r.Message, want[r.ID])
		}
	}
	if len(lines) != len(fakeChecks()) || rep.OK() {
		t.Errorf("progress lines %d, OK %v", len(lines), rep.OK())
	}
	if s := rep.Summary.Line(); s != "2 passed, 1 failed, 2 errored, 3 not-applicable, 1 skipped" {
		t.Errorf("summary %q", s)
	}

	strict, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "good", Catalog: cat, Checks: fakeChecks(),
		Only: []string{"needs-probes"}, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range strict.Checks {
		if r.ID == "needs-probes" && (r.Status != StatusFail || !strings.Contains(r.Message, "--strict")) {
			t.Errorf("--strict turns not-applicable into fail: %s", r.Line())
		}
		if r.ID != "needs-probes" && r.Status != StatusSkipped {
			t.Errorf("--only skips the others: %s", r.Line())
		}
	}
}

func TestRunRefusesBadSetup(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	srv := bareHost(t)
	if _, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "bad", Catalog: cat, Checks: fakeChecks()}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a refused credential must stop the run naming the answer, got %v", err)
	}
	if _, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "good", Catalog: cat, Checks: fakeChecks(), Only: []string{"nope"}}); err == nil {
		t.Error("an unknown --only id must stop the run")
	}
}

func TestPanicIsReportedWithItsSite(t *testing.T) {
	err := runOne(context.Background(), time.Second, Check{ID: "x", Run: func(context.Context, *Probe) error { panic("boom") }}, &Probe{})
	if err == nil || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "runner_test.go:") || strings.Contains(err.Error(), "\n") ||
		strings.Contains(err.Error(), "+0x") {
		t.Fatalf("panic reported as %q; want one line naming the value and the site (file and line, no code offset)", err)
	}
}
