package selftest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/catalogtest"
	"github.com/takokit/takokit/conformance"
)

// outcomesDir holds, per shaped host, how each check ends there.
var outcomesDir = filepath.Join("testdata", "outcomes")

// shapedHosts are hosts that install less than full, speak the other lane, or
// are run with less (one token, no probe header): on them a check ends
// not-applicable for a reason of its own, or passes on what is left. The files
// are named for the host.
var shapedHosts = []shapedHost{
	{name: "bundles-only", profile: "testdata/bundles-only.json"},
	{name: "kv-only", profile: "kv-only"},
	{name: "no-endpoints", profile: "no-endpoints"},
	{name: "silent-support", profile: "silent-support"},
	// every support route 503: the Forms are read one by one and the support checks fail
	{name: "unreadable-support", profile: "unreadable-support"},
	{name: "tight-limits", profile: "tight-limits"},
	{name: "v1alpha3", profile: "full", lane: "v1alpha3"},
	// test profiles of hosts lacking what some checks need (not_applicable_hosts_test.go)
	{name: "no-artifacts", profile: "testdata/no-artifacts.json"},
	{name: "versions-without-worker", profile: "testdata/versions-without-worker.json"},
	{name: "nothing-creatable", profile: "testdata/nothing-creatable.json"},
	{name: "versions-first-related", profile: "testdata/versions-first-related.json"},
	{name: "endpoint-two-versions", profile: "testdata/endpoint-two-versions.json"},
	{name: "no-attachments", profile: "testdata/no-attachments.json"},
	{name: "primary-alone", profile: "full", primaryAlone: true},
	{name: "no-probes", profile: "full", noProbes: true},
	// the built-in family with no conformance fixtures anywhere, served whole
	// (notBlamedOnTheHost)
	{name: "no-fixtures", profile: "full", noFixtures: true},
}

// shapedHost is a host of TestEachCheckEndsAsRecordedOnShapedHosts.
type shapedHost struct {
	name, profile, lane string
	// primaryAlone runs with the primary token only, as a host implementer
	// holding one token may: a check needing another principal must say which
	// flag it needs, never reach for the principal it was not given
	primaryAlone bool
	// noProbes is a host ignoring the test-only probe header, as every host
	// but hostsim does: a check needing it must say so
	noProbes bool
	// noFixtures serves, and runs the runner with, the built-in family stripped
	// of every conformance fixture (fixturelessCatalog)
	noFixtures bool
}

// TestEachCheckEndsAsRecordedOnShapedHosts: how each check ends on hosts that
// install less than full (its status, and its message with what a run draws at
// random masked) is recorded in testdata/outcomes/HOST.txt. A check that
// stopped saying why it does not apply, passed where it has nothing to
// measure, or broke on a missing Form (a runner panic is an error) changes its
// line. Each host runs every check (TAKOKIT_SELFTEST_CHECKS narrows them, for
// mage mutate) in one run; TAKOKIT_UPDATE_GOLDEN=1 records them again.
func TestEachCheckEndsAsRecordedOnShapedHosts(t *testing.T) {
	t.Parallel() // its own hosts
	only := areaChecks(t)
	update := os.Getenv("TAKOKIT_UPDATE_GOLDEN") == "1"
	if update && only != nil {
		t.Fatal("TAKOKIT_UPDATE_GOLDEN=1 records every check: unset TAKOKIT_SELFTEST_CHECKS")
	}
	for _, h := range shapedHosts {
		t.Run(h.name, func(t *testing.T) {
			got := endings(t, h, only)
			if h.noFixtures {
				notBlamedOnTheHost(t, got, only)
			}
			file := filepath.Join(outcomesDir, h.name+".txt")
			if update {
				if err := os.MkdirAll(outcomesDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("no recorded outcomes (%v): record them with TAKOKIT_UPDATE_GOLDEN=1 go test ./selftest -run %s and review the file", err, t.Name())
			}
			want := map[string]string{}
			for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				id, _, _ := strings.Cut(l, " ")
				want[id] = l
			}
			for _, l := range got {
				id, _, _ := strings.Cut(l, " ")
				if w, ok := want[id]; !ok {
					t.Errorf("%s: no recorded outcome on %s (record with TAKOKIT_UPDATE_GOLDEN=1)\n got %s", id, h.name, l)
				} else if w != l {
					t.Errorf("%s on %s ends otherwise than recorded in %s:\n got %s\nwant %s", id, h.name, file, l, w)
				}
			}
			if only == nil && len(got) != len(want) {
				t.Errorf("%d checks ran on %s, %d are recorded in %s", len(got), h.name, len(want), file)
			}
		})
	}
}

// endings runs the checks (all when only is nil) against an in-process hostsim
// shaped as h says (its profile, its lane or the default, the probe header
// ignored; the primary token alone), and gives one line per check: its id,
// status and masked message. The runner probes with the project's catalog of
// the lane it learns from the host.
func endings(t *testing.T, h shapedHost, only []string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	var extra []string
	if h.lane != "" {
		extra = append(extra, "--lane", h.lane)
	}
	if h.noProbes {
		extra = append(extra, "--conformance-probes", "false")
	}
	var cat *catalog.Catalog // the project's catalog of the host's lane
	if h.noFixtures {
		var dir string
		dir, cat = fixturelessCatalog(t)
		extra = append(extra, "--catalog", dir)
	}
	sim, err := startInProcess(ctx, "", h.profile, extra...)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	var lines []string
	cfg := conformance.Config{Endpoint: sim.URL, Catalog: cat, Space: "shaped", Only: only, Timeout: 20 * time.Second,
		Progress: func(r conformance.Result) {
			if r.Status == conformance.StatusSkipped {
				return
			}
			lines = append(lines, fmt.Sprintf("%s %s: %s", r.ID, r.Status, masked(r.Message)))
		}}
	tokens(&cfg)
	if h.primaryAlone {
		cfg.Alternate, cfg.OtherTenant = "", ""
	}
	if _, err := conformance.Run(ctx, cfg); err != nil {
		t.Fatalf("the run against hostsim %s did not start: %v", h.profile, err)
	}
	return lines
}

// notBlamedOnTheHost holds the endings of the no-fixtures host to what a family
// without fixtures (which the catalog rules allow) must get from a host that
// installs every Form of it: no check fails or errs, and every not-applicable
// names the missing fixtures, but for the two relation checks that need a second
// definition of a kind, which no family of one has (proven on a test catalog). A
// not-applicable saying the host installs no Form that fits would blame the host
// for Forms it does install (docs/guides/conformance.md#not-applicable).
func notBlamedOnTheHost(t *testing.T, endings []string, only []string) {
	t.Helper()
	named := 0
	for _, l := range endings {
		_, rest, _ := strings.Cut(l, " ")
		status, msg, _ := strings.Cut(rest, ": ")
		switch {
		case status == string(conformance.StatusPass):
		case status != string(conformance.StatusNotApplicable):
			t.Errorf("on a family without fixtures: %s\nwant pass or not-applicable", l)
		case strings.Contains(strings.ToLower(msg), "fixture"):
			named++
		case !strings.Contains(msg, "the self-test proves this check on a test catalog"):
			t.Errorf("on a family without fixtures, whose every Form the host installs: %s\nwant the not-applicable to name the Forms without fixtures", l)
		}
	}
	if only == nil && named < 100 {
		t.Errorf("%d of %d checks named the Forms without fixtures; a family without any leaves most checks nothing to build (over 100)", named, len(endings))
	}
}

// fixturelessCatalog writes the built-in catalog with every kind stripped of its
// conformance fixtures into a scratch folder: its directory and the loaded catalog.
func fixturelessCatalog(t *testing.T) (string, *catalog.Catalog) {
	t.Helper()
	base, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, f := range base.Forms() {
		if !slices.Contains(kinds, f.Ref.Kind) {
			kinds = append(kinds, f.Ref.Kind)
		}
	}
	dir := filepath.Join(t.TempDir(), "catalog")
	cat, err := catalogtest.WithoutFixtures(dir, kinds...)
	if err != nil {
		t.Fatal(err)
	}
	return dir, cat
}
