package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/conformance"
	"github.com/takokit/takokit/conformance/selftest"
)

// summaryLine is the run's last line, counts included.
var summaryLine = regexp.MustCompile(`^\d+ passed, \d+ failed, \d+ errored, \d+ not-applicable, \d+ skipped$`)

var simEnv = env(map[string]string{"TOK": selftest.TokenPrimary, "ALT": selftest.TokenAlternate, "OTHER": selftest.TokenOtherTenant})

// startHostsim runs bin/hostsim full for the test; a missing binary fails it
// (naming how to build it) unless TAKOKIT_NO_HOSTSIM=1 asks it to skip.
func startHostsim(t *testing.T) *selftest.Sim {
	t.Helper()
	wd, _ := os.Getwd()
	bin, skip, err := selftest.LocateHostsim(wd, selftest.HostsimOptOut())
	switch {
	case err != nil:
		t.Fatal(err)
	case skip != "":
		t.Skip(skip)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sim, err := selftest.Start(ctx, bin, "full")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sim.Stop)
	return sim
}

// arm resets sim and arms faults.
func arm(t *testing.T, sim *selftest.Sim, faults ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := sim.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, f := range faults {
		if err := sim.ArmFault(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
}

func runArgs(sim *selftest.Sim, extra ...string) []string {
	return append([]string{"run", "--endpoint", sim.URL, "--token-env", "TOK", "--alternate-token-env", "ALT",
		"--other-tenant-token-env", "OTHER"}, extra...)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestExitStatus: 0 when every selected check passes, 1 when one fails, 1 when
// checks could not run because a step they need failed on the host; the summary
// is the last line of stdout each time.
func TestExitStatus(t *testing.T) {
	t.Parallel() // its own hostsim process
	sim := startHostsim(t)
	for _, c := range []struct {
		name    string
		faults  []string
		only    string
		code    int
		summary string
	}{
		{"every check passes", nil, "discovery-exact,revision-etag-exact", 0, "2 passed, 0 failed, 0 errored, 0 not-applicable, "},
		{"a check fails", []string{"discovery.omit-feature"}, "discovery-exact", 1, "0 passed, 1 failed, 0 errored, 0 not-applicable, "},
		{"checks could not run on the host", []string{"etag.weak"}, "apply-create-uid-minted,stale-revision-rejected", 1,
			"0 passed, 0 failed, 2 errored, 0 not-applicable, "},
	} {
		arm(t, sim, c.faults...)
		code, stdout, stderr := runCLI(t, simEnv, runArgs(sim, "--only", c.only)...)
		if code != c.code || !strings.HasPrefix(lastLine(stdout), c.summary) || !summaryLine.MatchString(lastLine(stdout)) {
			t.Errorf("%s: exit %d, last line %q (stderr %q); want exit %d and a summary starting %q", c.name, code, lastLine(stdout), stderr, c.code, c.summary)
		}
	}
}

// fakeHost answers discovery and the support listing, and calls onDiscovery (when
// set) with the count of plain discovery requests so far (the probe-detection
// request of the surface read carries the probe header and is not counted).
func fakeHost(t *testing.T, status int, onDiscovery func(n int64)) *httptest.Server {
	t.Helper()
	var seen atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if status != http.StatusOK {
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":{"code":"unauthenticated","message":"who are you","requestId":"r","retryable":false}}`))
			return
		}
		switch r.URL.Path {
		case wire.DefaultLane.DiscoveryPath:
			if onDiscovery != nil && r.Header.Get(conformance.ProbeHeader) == "" {
				onDiscovery(seen.Add(1))
			}
			_, _ = w.Write([]byte(`{"api_versions":["` + wire.DefaultLane.APIVersion + `"],"features":{"support_profiles":true},"endpoints":{"api":"http://` + r.Host + wire.DefaultLane.APIRoot + `"}}`))
		case wire.DefaultLane.APIRoot + "/support/forms":
			_, _ = w.Write([]byte(`{"profiles":[]}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunThatCouldNotRunExits2: a refused credential, a report that cannot be
// written and an interrupted run are exit 2; the last two still print the summary.
func TestRunThatCouldNotRunExits2(t *testing.T) {
	t.Parallel() // its own fake hosts
	tok := env(map[string]string{"TOK": "some-token"})
	refusing := fakeHost(t, http.StatusUnauthorized, nil)
	code, stdout, stderr := runCLI(t, tok, "run", "--endpoint", refusing.URL, "--token-env", "TOK")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "401") {
		t.Errorf("a refused credential: exit %d stdout %q stderr %q; want 2 naming the 401", code, stdout, stderr)
	}

	host := fakeHost(t, http.StatusOK, nil)
	// a directory: its parent is there, so the run goes ahead (a missing one is
	// refused before it, TestRunRefusesWhatWouldWasteIt), and the write fails at the end
	missing := t.TempDir()
	code, stdout, stderr = runCLI(t, tok, "run", "--endpoint", host.URL, "--token-env", "TOK", "--only", "discovery-exact", "--format", "json", "--out", missing)
	if code != 2 || !strings.Contains(stderr, "writing the report to --out "+missing) || !summaryLine.MatchString(lastLine(stdout)) {
		t.Errorf("an unwritable --out: exit %d stdout %q stderr %q; want 2 naming the file, the summary still on stdout", code, stdout, stderr)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupting := fakeHost(t, http.StatusOK, func(n int64) {
		if n == 3 { // the first reads the host's lane, the second the surface, the third is the check's own
			cancel()
		}
	})
	var out, errb strings.Builder
	err := run(ctx, []string{"run", "--endpoint", interrupting.URL, "--token-env", "TOK", "--only", "discovery-exact"}, &out, &errb, tok)
	if code := exitCode(err, &errb); code != 2 || !strings.Contains(errb.String(), "interrupted") || !summaryLine.MatchString(lastLine(out.String())) {
		t.Errorf("an interrupted run: exit %d stdout %q stderr %q; want 2 saying so, the summary on stdout", code, out.String(), errb.String())
	}
}

// TestSummaryAlwaysOnStdout: with --out, whatever the format, stdout is the
// summary line; a JSON or JUnit document on stdout stays parseable, the summary
// going to stderr.
func TestSummaryAlwaysOnStdout(t *testing.T) {
	t.Parallel() // its own hostsim process
	sim := startHostsim(t)
	arm(t, sim, "etag.weak")
	only := []string{"--only", "revision-etag-exact,apply-create-uid-minted"}
	const want = "0 passed, 1 failed, 1 errored, 0 not-applicable, "
	for _, format := range []string{"text", "json", "junit"} {
		out := filepath.Join(t.TempDir(), "report."+format)
		code, stdout, stderr := runCLI(t, simEnv, runArgs(sim, append(only, "--format", format, "--out", out)...)...)
		if code != 1 || !strings.HasPrefix(stdout, want) || strings.Count(stdout, "\n") != 1 || !summaryLine.MatchString(lastLine(stdout)) {
			t.Errorf("--format %s --out: exit %d, stdout %q (stderr %q); want 1 and exactly the summary line", format, code, stdout, stderr)
		}
		doc, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		switch format {
		case "text":
			for _, s := range []string{"fail revision-etag-exact", "protocol: docs/protocol.md#headers", "could not run, see cause [1] below",
				"errored checks, by cause:", "[1] 1 check could not run: ETag", want} {
				if !strings.Contains(string(doc), s) {
					t.Errorf("text report lacks %q:\n%s", s, doc)
				}
			}
		case "json":
			if !json.Valid(doc) {
				t.Errorf("JSON report does not parse:\n%s", doc)
			}
		case "junit":
			if err := xml.Unmarshal(doc, new(struct{})); err != nil {
				t.Errorf("JUnit report does not parse: %v", err)
			}
		}
	}
	for _, format := range []string{"json", "junit"} {
		code, stdout, stderr := runCLI(t, simEnv, runArgs(sim, append(only, "--format", format)...)...)
		parses := json.Valid([]byte(stdout))
		if format == "junit" {
			parses = xml.Unmarshal([]byte(stdout), new(struct{})) == nil && !strings.Contains(stdout, " passed, ")
		}
		if code != 1 || !parses || !strings.HasPrefix(stderr, want) {
			t.Errorf("--format %s to stdout: exit %d, parses %v, stderr %q; want 1, a parseable document and the summary on stderr", format, code, parses, stderr)
		}
	}
	code, stdout, _ := runCLI(t, simEnv, runArgs(sim, only...)...)
	if code != 1 || !strings.HasPrefix(lastLine(stdout), want) || !strings.Contains(stdout, "errored checks, by cause:") ||
		!strings.Contains(stdout, "    requirement: Every representation answer") {
		t.Errorf("text to stdout: exit %d\n%s", code, stdout)
	}
}

// TestOneBrokenRuleIsReportedOnce is issue 22's case: hostsim full with etag.weak
// armed. The check measuring the ETag rule fails at it; every check that needs a
// resource could not run and is errored under that one cause, not failed; the
// JSON carries requirement, anchor and exchange.
func TestOneBrokenRuleIsReportedOnce(t *testing.T) {
	t.Parallel() // its own hostsim process
	sim := startHostsim(t)
	arm(t, sim, "etag.weak")
	out := filepath.Join(t.TempDir(), "report.json")
	code, stdout, stderr := runCLI(t, simEnv, runArgs(sim, "--format", "json", "--out", out)...)
	if code != 1 || !summaryLine.MatchString(strings.TrimSpace(stdout)) {
		t.Fatalf("exit %d stdout %q stderr %q; want 1 and the summary", code, stdout, stderr)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var rep conformance.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if stdout != rep.Summary.Line()+"\n" {
		t.Errorf("stdout %q is not the report's summary %q", stdout, rep.Summary.Line())
	}
	var failed []string
	for _, r := range rep.Checks {
		if r.Status == conformance.StatusFail {
			failed = append(failed, r.ID)
		}
		if r.Requirement == "" || r.Title == "" || r.Area == "" || !strings.HasPrefix(r.Anchor, "docs/protocol.md#") {
			t.Errorf("%s: requirement %q, title %q, area %q, anchor %q", r.ID, r.Requirement, r.Title, r.Area, r.Anchor)
		}
		if r.ID == conformance.RuleETag {
			x := r.Exchange
			if r.Anchor != "docs/protocol.md#headers" || x == nil || x.Status != http.StatusCreated || x.Headers["Etag"] != `W/"1"` || !strings.HasPrefix(x.Request, "PUT /apis/") {
				t.Errorf("%s: anchor %q, exchange %+v; want the create answering the weak ETag", r.ID, r.Anchor, x)
			}
		}
	}
	if strings.Join(failed, ",") != conformance.RuleETag {
		t.Errorf("failed checks %v; want only %s, the check measuring the broken rule", failed, conformance.RuleETag)
	}
	if rep.Summary.Errored < 50 || len(rep.ErroredByCause) != 1 {
		t.Fatalf("summary %s with %d causes; want the checks needing a resource errored under one cause", rep.Summary.Line(), len(rep.ErroredByCause))
	}
	g := rep.ErroredByCause[0]
	steps := 0
	for _, s := range g.Steps {
		steps += s.Checks
	}
	if g.CauseRule != conformance.RuleETag || g.Anchor != "docs/protocol.md#headers" || len(g.Checks) != rep.Summary.Errored || steps != len(g.Checks) ||
		!strings.Contains(g.Cause, "does not equal the quoted revision") {
		t.Errorf("cause %+v; want every errored check under the ETag rule", g)
	}
	if rep.Summary.Passed == 0 {
		t.Errorf("no check passed: the checks that need no resource must still run and pass (%s)", rep.Summary.Line())
	}
}
