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
	"github.com/takokit/takokit/conformance"
)

// requestsDir holds, per check, the requests it sends to hostsim full, one per
// line (recorder's masked form: method, target, headers, body); requestHosts
// adds a partial host, whose files are in a folder of its own.
const requestsDir = "testdata/requests"

// requestHosts are the hosts the requests are recorded on: full, where every
// check applies; kv-only, which installs a part of the Forms, interfaces
// and bindings, so the checks also send what they send about things a host
// does not install (support reads, enforcement probes); and tight-limits,
// which publishes narrowed enums and lower limits, so the checks that measure
// a published narrowing (one past the published file count, a handler outside
// the narrowed enum) send what they send only there.
var requestHosts = []struct{ profile, dir string }{
	{"full", requestsDir},
	{"kv-only", "testdata/requests-kv-only"},
	{"tight-limits", "testdata/requests-tight-limits"},
}

// TestEachCheckSendsTheRequestsRecordedForIt: what a check asks the host is part
// of what it measures, so it is recorded and reviewed. Every check runs alone
// against hostsim full (and kv-only: requestHosts), reset before it, and must send, in order, the requests recorded for it in
// testdata/requests/ID.txt, and end as recorded (its first line). A check that
// stopped early, skipped a sub-case or built another body than before fails it,
// naming the first request that differs; a deliberate change is recorded again
// with TAKOKIT_UPDATE_GOLDEN=1 and reviewed in the diff (docs/guides/conformance.md,
// "What a check sends").
func TestEachCheckSendsTheRequestsRecordedForIt(t *testing.T) {
	t.Parallel()
	only := areaChecks(t)
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range requestHosts {
		t.Run(h.profile, func(t *testing.T) {
			t.Parallel() // its own host
			sendsRecorded(t, cat, only, h.profile, h.dir)
		})
	}
}

// sendsRecorded runs each check (of only, or all) alone on a host of profile
// and compares what it sent with dir/ID.txt.
func sendsRecorded(t *testing.T, cat *catalog.Catalog, only []string, profile, requestsDir string) {
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", profile)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	update := os.Getenv("TAKOKIT_UPDATE_GOLDEN") == "1"
	if update && only == nil {
		if err := os.RemoveAll(requestsDir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(requestsDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range conformance.Table() {
		if only != nil && !slices.Contains(only, c.ID) {
			continue
		}
		// alone on a host reset: what a check sends must not depend on what the
		// checks before it left (an artifact already uploaded is not sent again)
		seqs, results := runRecorded(t, sim, cat, []string{c.ID}, nil)
		r, ok := results[c.ID]
		if !ok {
			t.Errorf("%s: the run gave no result", c.ID)
			continue
		}
		got := append([]string{"# " + string(r.Status)}, seqs[c.ID]...)
		file := filepath.Join(requestsDir, c.ID+".txt")
		if update {
			if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s: no recorded requests (%v): record them with TAKOKIT_UPDATE_GOLDEN=1 go test ./selftest -run %s and review the file", c.ID, err, t.Name())
			continue
		}
		want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if i := firstDiff(want, got); i >= 0 {
			what := fmt.Sprintf("request %d of %d (recorded: %d)", i, len(got)-1, len(want)-1)
			if i == 0 {
				what = "its outcome"
			}
			t.Errorf("%s: %s differs from %s:\n  recorded: %s\n  sent:     %s\nif the change is meant, record it again with TAKOKIT_UPDATE_GOLDEN=1 and review the diff", c.ID, what, file, at(want, i), at(got, i))
		}
	}
}
