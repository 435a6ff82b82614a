package selftest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/conformance"
)

// outcomesDir holds, per shaped host, how each check ends there.
var outcomesDir = filepath.Join("testdata", "outcomes")

// shapedHosts are hosts that install less than full, speak the other lane, or
// are run with less (one token, no probe header): on them a check ends
// not-applicable for a reason of its own, or passes on what is left. The files
// are named for the host.
var shapedHosts = []shapedHost{
	{"bundles-only", "testdata/bundles-only.json", "", false, false},
	{"kv-only", "kv-only", "", false, false},
	{"no-endpoints", "no-endpoints", "", false, false},
	{"silent-support", "silent-support", "", false, false},
	{"tight-limits", "tight-limits", "", false, false},
	{"v1alpha3", "full", "v1alpha3", false, false},
	// test profiles of hosts lacking what some checks need (not_applicable_hosts_test.go)
	{"no-artifacts", "testdata/no-artifacts.json", "", false, false},
	{"versions-without-worker", "testdata/versions-without-worker.json", "", false, false},
	{"nothing-creatable", "testdata/nothing-creatable.json", "", false, false},
	{"versions-first-related", "testdata/versions-first-related.json", "", false, false},
	{"endpoint-two-versions", "testdata/endpoint-two-versions.json", "", false, false},
	{"primary-alone", "full", "", true, false},
	{"no-probes", "full", "", false, true},
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
	sim, err := startInProcess(ctx, "", h.profile, extra...)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	var lines []string
	cfg := conformance.Config{Endpoint: sim.URL, Space: "shaped", Only: only, Timeout: 20 * time.Second,
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
