package conformance

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

const secretToken = "tok-secret-123"

// leakyHost answers discovery and an empty support listing; /echo answers 500
// with the request's Authorization in its body (a host that leaks it), /big 200
// with a 2000-byte body.
func leakyHost(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secretToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case wire.DefaultLane.DiscoveryPath:
			_, _ = w.Write([]byte(`{"api_versions":["` + wire.DefaultLane.APIVersion + `"],"features":{"support_profiles":true},"endpoints":{"api":"http://` + r.Host + wire.DefaultLane.APIRoot + `"}}`))
		case wire.DefaultLane.APIRoot + "/support/forms":
			_, _ = w.Write([]byte(`{"profiles":[]}`))
		case "/echo":
			w.Header().Set("ETag", `"7"`)
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`{"error":{"code":"internal_error","message":"saw ` + r.Header.Get("Authorization") + ` (token ` + secretToken + `)","requestId":"r1","retryable":false}}`))
		case "/big":
			_, _ = w.Write([]byte(`"` + strings.Repeat("é", 999) + `"`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// setupRefused is a check whose setup step a host refuses: its message names the
// check's own fresh space, so only masking makes two of them one cause.
func setupRefused(ctx context.Context, p *Probe) error {
	r, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: "/echo"})
	if err != nil {
		return err
	}
	return setup("setting up Thing", failf("PUT /x/%s in %s: expected 201, got %s", p.Name("thing"), p.Space, r.Got()))
}

func runLeaky(t *testing.T, checks []Check) *Report {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Endpoint: leakyHost(t).URL, Primary: secretToken, Catalog: cat, Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestErroredChecksGroupUnderOneCause(t *testing.T) {
	rep := runLeaky(t, []Check{
		{ID: "first", Area: AreaIdentity, Run: setupRefused},
		{ID: "own-failure", Area: AreaIdentity, Run: func(context.Context, *Probe) error { return failf("GET /x: expected 200, got 500") }},
		{ID: "second", Area: AreaIdentity, Run: setupRefused},
		{ID: "unreachable", Area: AreaIdentity, Run: func(context.Context, *Probe) error {
			return &TransportError{What: "GET /y", Err: context.DeadlineExceeded}
		}},
	})
	if s := rep.Summary.Line(); s != "0 passed, 1 failed, 3 errored, 0 not-applicable, 0 skipped" {
		t.Fatalf("summary %q", s)
	}
	if len(rep.ErroredByCause) != 2 {
		t.Fatalf("causes %+v; want the two refused setups under one and the transport error under another", rep.ErroredByCause)
	}
	g := rep.ErroredByCause[0]
	if strings.Join(g.Checks, ",") != "first,second" || !strings.HasPrefix(g.Cause, "setting up Thing: PUT /x/{name} in {name}: expected 201, got 500") {
		t.Errorf("first cause %+v", g)
	}
	if len(g.Steps) != 1 || g.Steps[0] != (StepCount{Step: "setting up Thing", Checks: 2}) {
		t.Errorf("steps %+v", g.Steps)
	}
	for _, r := range rep.Checks {
		if r.Status == StatusError && r.Cause == "" {
			t.Errorf("%s: errored without a cause", r.ID)
		}
		if r.ID == "first" && (r.CauseStep != "setting up Thing" || r.Exchange == nil || r.Exchange.Request != "GET /echo" || r.Exchange.Status != 500) {
			t.Errorf("first: step %q, exchange %+v; want the refused request's excerpt", r.CauseStep, r.Exchange)
		}
		if r.ID == "own-failure" && r.Cause != "" {
			t.Errorf("a fail carries no cause: %q", r.Cause)
		}
	}
}

func TestExchangeExcerpt(t *testing.T) {
	rep := runLeaky(t, []Check{
		{ID: "last-exchange", Area: AreaIdentity, Run: func(ctx context.Context, p *Probe) error {
			if _, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: "/big"}); err != nil {
				return err
			}
			return failf("the body is wrong")
		}},
		{ID: "offending-exchange", Area: AreaIdentity, Run: func(ctx context.Context, p *Probe) error {
			bad, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: "/echo"})
			if err != nil {
				return err
			}
			if _, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: "/big"}); err != nil {
				return err
			}
			return expectStatus(bad, http.StatusOK)
		}},
		{ID: "passes", Area: AreaIdentity, Run: func(ctx context.Context, p *Probe) error {
			_, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: "/big"})
			return err
		}},
	})
	byID := map[string]Result{}
	for _, r := range rep.Checks {
		byID[r.ID] = r
	}
	last := byID["last-exchange"].Exchange
	if last == nil || last.Request != "GET /big" || last.Status != 200 || !last.Truncated || len(last.Body) > ExcerptBytes || !strings.HasPrefix(last.Body, `"é`) {
		t.Fatalf("a failure without an answer of its own shows the check's last exchange, bounded: %+v", last)
	}
	if !utf8.ValidString(last.Body) { // json.Valid would not do: it accepts invalid UTF-8 in a string
		t.Errorf("the excerpt split a UTF-8 sequence: %q", last.Body[len(last.Body)-4:])
	}
	off := byID["offending-exchange"].Exchange
	if off == nil || off.Request != "GET /echo" || off.Status != 500 ||
		!maps.Equal(off.Headers, map[string]string{"Etag": `"7"`, "Content-Type": "application/json"}) {
		t.Errorf("a failure naming its answer shows that answer, not the last one: %+v", off)
	}
	if byID["passes"].Exchange != nil {
		t.Errorf("a passing check carries no exchange: %+v", byID["passes"].Exchange)
	}
}

// TestReportsNeverCarryTheToken: a host echoing the bearer token in its error
// body leaks it into no message, cause, exchange or rendered report.
func TestReportsNeverCarryTheToken(t *testing.T) {
	rep := runLeaky(t, []Check{
		{ID: "echoed", Area: AreaIdentity, Run: func(ctx context.Context, p *Probe) error {
			r, err := p.P.Do(ctx, Req{Method: http.MethodGet, Target: "/echo"})
			if err != nil {
				return err
			}
			return expectStatus(r, http.StatusOK)
		}},
		{ID: "echoed-in-setup", Area: AreaIdentity, Run: setupRefused},
	})
	if rep.Checks[0].Exchange == nil || !strings.Contains(rep.Checks[0].Exchange.Body, "[redacted]") {
		t.Fatalf("the echoed body is not in the excerpt, so this test proves nothing: %+v", rep.Checks[0].Exchange)
	}
	var text, js, junit strings.Builder
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "json": js.String(), "junit": junit.String()} {
		if strings.Contains(out, secretToken) {
			t.Errorf("the %s report carries the bearer token:\n%s", name, out)
		}
	}
	if red := newRedactor("t").text("Authorization: bearer abc.DEF-1 and t"); red != "Authorization: Bearer [redacted] and t" {
		t.Errorf("redacting with a toy token gave %q; a bearer credential is always redacted, a token under %d characters only there", red, minRedactLen)
	}
}
