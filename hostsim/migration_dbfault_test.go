package hostsim_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/internal/sweeptest"
)

// TestDatabaseFaultsLeaveEveryApplicationWhole: the create and the import of a
// migration application whose n-th step on its own database fails
// (migrations.db-fail: the ledger read, then each file's begin, SQL, ledger
// row and commit) answer internal_error 500 naming the step and the fault and
// store nothing of the application; the database keeps exactly the files
// before the one in flight, with the tables they made; and the same request
// sent again resumes after the ledger and succeeds — for each step (13 for a
// set of three files), until n passes the last; a second application of the
// database re-renders the first once (docs/protocol.md#migrations).
func TestDatabaseFaultsLeaveEveryApplicationWhole(t *testing.T) {
	steps := map[string]int{ // the ledger read, and four per unapplied file
		"create of an application that migrates":                            1 + 3*4,
		"import of an application that migrates":                            1 + 3*4,
		"poll that commits an accepted application that migrates":           1 + 3*4,
		"create of a second application that migrates its database further": 1 + 1*4,
		"re-apply of an application that keeps its stored pins":             1, // nothing left to apply
	}
	ran := 0
	var sw sweeptest.Sweep
	for _, c := range changeCases {
		want, ok := steps[c.name]
		if !ok {
			continue
		}
		ran++
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if n := sweepChange(t, &sw, c, "migrations.db-fail", "step %d on the database ("); n != want {
				t.Fatalf("the %s failed %d steps on its database, want %d", c.name, n, want)
			}
		})
	}
	if ran != len(steps) {
		t.Fatalf("%d of the %d changes of a migration application are in the sweep", ran, len(steps))
	}
}

// A failed step names the application, its database and set, what the
// database holds and what to do; the request sent again applies the rest, each
// file once (one journal event each), and the application is Ready.
func TestADatabaseFailureSaysWhatStayedAppliedAndResumes(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2, m3)
	masked := regexp.MustCompile(`uid u-[0-9a-f]+|sha256:[0-9a-f]{64}`)
	for _, c := range []struct{ step, says string }{
		{"1", `before its ledger could be read, and the application is not stored: the same request sent again (or the next poll of its operation) resumes after the ledger. ` +
			`The failure: step 1 on the database (read the ledger) failed`},
		{"7", `with 1 of the set's 3 files in its ledger (this request applied 1; they stay applied, the file in flight was rolled back), ` +
			`and the application is not stored: the same request sent again (or the next poll of its operation) resumes after the ledger. ` +
			`The failure: step 7 on the database (run migration file "migrations/0002_posts.sql") failed`},
	} {
		arm(t, w.sim, "migrations.db-fail="+c.step+",route=apply,count=1")
		r := w.apply("app", "db", "v1").refused("internal_error", 500)
		var doc struct{ Error struct{ Message string } }
		if err := json.Unmarshal(r.body, &doc); err != nil {
			t.Fatal(err)
		}
		want := `SQLiteMigrationApplication "app" in space "prod": hostsim failed as an armed fault asked: ` +
			`the database SQLiteDatabase "db" (<uid>) failed while applying SQLiteMigrationSet "v1" (manifest <digest>), ` +
			c.says + `: the migrations.db-fail fault injected a storage error`
		got := masked.ReplaceAllStringFunc(doc.Error.Message, func(s string) string {
			if strings.HasPrefix(s, "uid") {
				return "<uid>"
			}
			return "<digest>"
		})
		if got != want {
			t.Fatalf("migrations.db-fail=%s answered\n%s\nwant\n%s", c.step, got, want)
		}
	}
	if d := w.database("db"); d.ledger() != m1.path || d.tables() != "users:1" {
		t.Fatalf("after the failures the database holds %s (tables %s)", d.ledger(), d.tables())
	}
	if r := readyIn(t, w.apply("app", "db", "v1").status(201)); r.Status != "True" {
		t.Fatalf("the resumed application is not Ready: %+v", r)
	}
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path+","+m3.path || d.tables() != "posts:1,users:1" {
		t.Fatalf("the resumed application left %s (tables %s)", d.ledger(), d.tables())
	}
	if ev := w.migrationEvents(); len(ev) != 3 || ev[m1.path] != 1 || ev[m2.path] != 1 || ev[m3.path] != 1 {
		t.Fatalf("the journal's migration events per file: %v, want each file once", ev)
	}
}

// On an accepted (202) application the database failing at its commit is the
// host failing, not the operation's outcome, whichever request commits it (a
// due poll, the admin API's completion, a cancel under operation.uncancellable):
// that request fails naming the step, the operation stays pending with the
// file before the failure applied and journalled, and the next poll resumes
// after the ledger and succeeds, each file journalled once
// (docs/protocol.md#migrations).
func TestADatabaseFailureAtCommitLeavesTheOperationPending(t *testing.T) {
	for _, c := range []struct {
		name, faults string
		commit       func(w *migrationWorld, id string) (code int, body string)
	}{
		{"poll", "", func(w *migrationWorld, id string) (int, string) {
			for i := 0; ; i++ { // the probe's first poll only counts
				r := w.c.do("GET", api+"/operations/"+id, nil, nil)
				var d opDoc
				if r.code != 200 || json.Unmarshal(r.body, &d) != nil || d.Done || i > 3 {
					return r.code, string(r.body)
				}
			}
		}},
		{"admin completion", "", func(w *migrationWorld, id string) (int, string) {
			doc, err := w.sim.Admin.Complete(id)
			if err == nil {
				return 200, string(doc)
			}
			return 500, err.Error()
		}},
		{"uncancellable cancel", "operation.uncancellable,count=1", func(w *migrationWorld, id string) (int, string) {
			r := w.c.do("POST", api+"/operations/"+id+"/cancel", map[string]string{"Idempotency-Key": newKey()}, nil)
			return r.code, string(r.body)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newMigrationWorld(t, hostsim.Config{ConformanceProbes: true})
			w.create(kSQLite, "db", map[string]any{}).status(201)
			w.set("v1", m1, m2, m3)
			op := w.applyAsync("app", "db", "v1")
			arm(t, w.sim, "migrations.db-fail=7,count=1") // file 2's SQL
			if c.faults != "" {
				arm(t, w.sim, c.faults)
			}
			code, body := c.commit(w, op.ID)
			if code != 500 || !strings.Contains(body, "internal_error") ||
				!strings.Contains(body, `step 7 on the database (run migration file \"`+m2.path) {
				t.Fatalf("the %s that committed answered %d %s", c.name, code, body)
			}
			if got := fired(t, w.sim, "migrations.db-fail=7"); got != 1 {
				t.Fatalf("the fault counted %d firings, want 1", got)
			}
			if d := w.database("db"); d.ledger() != m1.path || d.tables() != "users:1" {
				t.Fatalf("after the failed commit the database holds %s (tables %s)", d.ledger(), d.tables())
			}
			if ev := w.migrationEvents(); len(ev) != 1 || ev[m1.path] != 1 {
				t.Fatalf("after the failed commit the journal's migration events per file are %v, want file 1 once", ev)
			}
			// polls commit: had the failure ended the operation, they would answer Failed
			if d, r := w.settle(op.ID); d.Metadata.Phase != "Succeeded" {
				t.Fatalf("the poll after the failure: %s", r.body)
			}
			if d := w.database("db"); d.ledger() != m1.path+","+m2.path+","+m3.path || d.tables() != "posts:1,users:1" {
				t.Fatalf("the resumed operation left %s (tables %s)", d.ledger(), d.tables())
			}
			if ev := w.migrationEvents(); len(ev) != 3 || ev[m1.path] != 1 || ev[m2.path] != 1 || ev[m3.path] != 1 {
				t.Fatalf("the journal's migration events per file: %v, want each file once", ev)
			}
		})
	}
}
