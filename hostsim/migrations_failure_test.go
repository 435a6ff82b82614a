package hostsim_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// The refusal of a failing file says exactly what stayed: how many files the
// database keeps before it, which of them this request applied (five by
// name, then a count, or none) and that the application was not created.
// Each failed run journals one migration-failed event, and no other run
// does; a failed run that moved the ledger re-renders the database's other
// applications.
func TestAFailingFileSaysWhatThisRequestApplied(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	var good []sqlFile
	for i := 1; i <= 6; i++ {
		good = append(good, sqlFile{fmt.Sprintf("migrations/%04d_t%d.sql", i, i), fmt.Sprintf("CREATE TABLE t%d (id INTEGER PRIMARY KEY);", i)})
	}
	bad := sqlFile{"migrations/0007_bad.sql", "INSERT INTO nowhere (id) VALUES (1);"}
	w.set("short", good[:2]...)
	w.set("long", append(append([]sqlFile(nil), good...), bad)...)
	says := func(what, msg string, wants ...string) {
		t.Helper()
		for _, want := range wants {
			if !strings.Contains(msg, want) {
				t.Fatalf("%s: the failure does not say %q: %s", what, want, msg)
			}
		}
	}
	named := func(files ...sqlFile) string {
		var q []string
		for _, f := range files {
			q = append(q, fmt.Sprintf("%q", f.path))
		}
		return strings.Join(q, ", ")
	}

	w.create(kSQLite, "a", map[string]any{}).status(201)
	says("a new application running seven files", w.apply("app-a", "a", "long").refused("invalid_argument", 400).message(),
		"migration file 7 of 7", "keeps the 6 file(s) applied before it (this request applied "+named(good[:5]...)+", and 1 more)",
		"the application was not created")
	says("the same set again", w.apply("app-a", "a", "long").refused("invalid_argument", 400).message(),
		"keeps the 6 file(s) applied before it (this request applied none before it)", "the application was not created")

	w.create(kSQLite, "b", map[string]any{}).status(201)
	w.apply("app-b", "b", "short").status(201) // a run that applies files and fails none
	// A run that applies files 3-6 and then fails moved the ledger: the other
	// application of the database is re-rendered at once, ahead of its set.
	w.apply("app-b-long", "b", "long").refused("invalid_argument", 400)
	if r := readyIn(t, w.read(kApp, "app-b").status(200)); r.Status != "False" || r.HostReason != "ledger-ahead-of-set" || r.Revision != "2" {
		t.Fatalf("app-b after another application's partly applied run: %+v; want not ready, ledger-ahead-of-set, at revision 2", r)
	}

	raw, err := w.sim.Admin.Events(0)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Events []struct{ Type string } }
	_ = json.Unmarshal(raw, &doc)
	failed := 0
	for _, e := range doc.Events {
		if e.Type == "migration-failed" {
			failed++
		}
	}
	if failed != 3 {
		t.Fatalf("%d migration-failed events; want one per failed run (3)", failed)
	}
}
