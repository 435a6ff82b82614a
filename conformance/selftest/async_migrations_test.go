package selftest

import (
	"context"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
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
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	sim, err := startInProcess(ctx, "", testProfile(t, "async-migrations.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Stop()
	for _, r := range sweepRun(ctx, t, sim.URL, cat, unaltered(checks), false) {
		if r.res.Status != conformance.StatusPass {
			t.Errorf("against a host migrating in the background: %s\nwant pass", r.res.Line())
		}
		if !r.accepted {
			t.Errorf("%s got no 202 from testdata/async-migrations.json: the profile no longer puts migrations behind an Operation", r.res.ID)
		}
	}
}
