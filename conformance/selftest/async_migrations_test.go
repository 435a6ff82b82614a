package selftest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/conformance"
)

// TestMigrationChecksFollowAHostThatMigratesInTheBackground: a host may answer
// the create of a migration application with 202 and run the files behind an
// Operation. The migration checks must follow each Operation to its end before
// they judge: to the application a good set made, and to the error envelope a
// set whose file fails ended with (docs/guides/conformance.md). Against
// testdata/async-migrations.json both checks pass, and each got a 202: a runner
// that took the 202 for the outcome would fail the resume check (the failing set
// "applied"), one that dropped the Operation's error would pass it for the wrong
// reason and fail to find the refusal's envelope.
func TestMigrationChecksFollowAHostThatMigratesInTheBackground(t *testing.T) {
	t.Parallel() // its own host
	checks := narrowedTo(t, "sqlite-migration-ledger-readiness", "sqlite-migration-suffix-resumes")
	ctx, sim, cat := startInProcessSim(t, testProfile(t, "async-migrations.json"))
	for _, r := range sweepRun(ctx, t, sim.URL, cat, unaltered(checks), false) {
		if r.res.Status != conformance.StatusPass {
			t.Errorf("against a host migrating in the background: %s\nwant pass", r.res.Line())
		}
		if !r.accepted {
			t.Errorf("%s got no 202 from testdata/async-migrations.json: the profile no longer puts migrations behind an Operation", r.res.ID)
		}
	}
}

// TestMigrationResumeCheckFailsAHostThatReportsAFailedFileApplied: against the
// host that migrates in the background, with the Operation of the set whose
// file 2 fails told as a success, the resume check must fail saying the set
// was not refused. A check that took the Operation's end for an error
// whatever it says, or read a success as an error envelope, would pass or
// stop as a runner bug.
func TestMigrationResumeCheckFailsAHostThatReportsAFailedFileApplied(t *testing.T) {
	t.Parallel() // its own host
	const id = "sqlite-migration-suffix-resumes"
	narrowedTo(t, id)
	ctx, sim, cat := startInProcessSim(t, testProfile(t, "async-migrations.json"))
	// every done Operation that ended in an error is told as one that ended with a
	// resource: a host that reports the run of a failing file as applied
	proxy, told := countedRewrite(t, sim.URL, func(_ *http.Request, op map[string]any) bool {
		if op["kind"] != "Operation" || op["done"] != true || op["error"] == nil {
			return false
		}
		delete(op, "error")
		op["result"] = map[string]any{"resource": map[string]any{}}
		return true
	})
	cfg := conformance.Config{Endpoint: proxy, Catalog: cat, Space: "swallowed", Only: []string{id}, PollPause: time.Millisecond}
	tokens(&cfg)
	rep, err := conformance.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if told.Load() == 0 {
		t.Fatal("no Operation ended in an error to tell as a success: the host no longer fails the set's file 2 behind an Operation")
	}
	for _, r := range rep.Checks {
		if r.ID != id {
			continue
		}
		if want := "a set whose file 2 fails must be refused with an error envelope; got 201"; r.Status != conformance.StatusFail || !strings.Contains(r.Message, want) {
			t.Errorf("with the failed file's Operation told as a success: %s\nwant a failure saying %q", r.Line(), want)
		}
		return
	}
	t.Fatalf("%s did not run", id)
}
