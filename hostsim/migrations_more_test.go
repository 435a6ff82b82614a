package hostsim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// applyAsync creates an application answered 202 (the async probe).
func (w *migrationWorld) applyAsync(name, db, set string) opDoc {
	w.t.Helper()
	f, spec := w.f(kApp), w.appSpec(db, set)
	pd := w.c.prepare(f, name, w.space, spec, 0)
	return accepted(w.t.(*testing.T), w.c.do("PUT", resPath(f, name), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey(),
		"Takoform-Conformance-Probe": "async"}, body(f, name, w.space, spec, map[string]any{"review": map[string]any{"prepareDigest": pd}})))
}

// settle polls an operation until it is done.
func (w *migrationWorld) settle(id string) (opDoc, *reply) {
	w.t.Helper()
	for i := 0; i < 5; i++ {
		if d, r := poll(w.t.(*testing.T), w.c, id); d.Done {
			return d, r
		}
	}
	w.t.Fatalf("operation %s never settled", id)
	return opDoc{}, nil
}

// An accepted (202) application runs nothing until it commits, and at commit
// proves the prefix again: a ledger that moved away from its set meanwhile
// fails the operation with migration_required, and nothing runs.
func TestAnAcceptedApplicationProvesThePrefixAgainAtCommit(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{ConformanceProbes: true})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2)
	op := w.applyAsync("a", "db", "v1")
	if d := w.database("db"); d.ledger() != "" {
		t.Fatalf("an accepted application ran files before its commit: %s", d.ledger())
	}
	if d, r := w.settle(op.ID); d.Metadata.Phase != "Succeeded" {
		t.Fatalf("the operation: %s", r.body)
	}
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path {
		t.Fatalf("after the commit the ledger is %s", d.ledger())
	}
	if r := readyIn(t, w.read(kApp, "a")); r.Status != "True" {
		t.Fatalf("the committed application: %+v", r)
	}

	// b is accepted against [1,2,3]; meanwhile c takes the database to [1,2,4].
	w.set("v2", m1, m2, m3)
	w.set("v3", m1, m2, m4)
	op = w.applyAsync("b", "db", "v2")
	w.apply("c", "db", "v3").status(201)
	d, r := w.settle(op.ID)
	if d.Metadata.Phase != "Failed" || d.Error == nil || d.Error.Code != "migration_required" || !contains(r.body, "(moved)") && !contains(r.body, "absent from the set") {
		t.Fatalf("the commit of b: %s", r.body)
	}
	w.read(kApp, "b").refused("resource_not_found", 404)
	if db := w.database("db"); db.ledger() != m1.path+","+m2.path+","+m4.path || db.tables() != "posts:0,tags:0,users:1" {
		t.Fatalf("after the failed commit: ledger %s, tables %s", db.ledger(), db.tables())
	}
}

// Deleting an application removes the attachment only: no down SQL, the
// ledger and the tables stay. The database and the set are protected while it
// lives; the database's own delete then drops its real database.
func TestDeletingAnApplicationKeepsTheLedger(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2)
	w.apply("app", "db", "v1").status(201)
	if r := w.del(kSQLite, "db", 1).refused("dependency_in_use", 409); !contains(r.body, `SQLiteMigrationApplication \"app\" (/database)`) {
		t.Fatalf("the database's delete: %s", r.body)
	}
	if r := w.del(kSet, "v1", 1).refused("dependency_in_use", 409); !contains(r.body, "/migrationSet") {
		t.Fatalf("the set's delete: %s", r.body)
	}
	dbUID := w.uid(kSQLite, "db")
	admin := newClient(t, w.sim.URL, "")
	one := admin.do("GET", "/_sim/databases/"+dbUID, nil, nil).status(200).json()
	if one["uid"] != dbUID || one["name"] != "db" || len(one["ledger"].([]any)) != 2 || len(one["tables"].([]any)) != 2 {
		t.Fatalf("GET /_sim/databases/{uid}: %v", one)
	}
	admin.do("GET", "/_sim/databases/"+w.uid(kSet, "v1"), nil, nil).refused("resource_not_found", 404)
	w.del(kApp, "app", 1).status(204)
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path || d.tables() != "posts:0,users:1" {
		t.Fatalf("after the application's delete: ledger %s, tables %s", d.ledger(), d.tables())
	}
	// Applying the same set again runs nothing: the ledger already equals it.
	w.apply("again", "db", "v1").status(201)
	if ev := w.migrationEvents(); ev[m1.path] != 1 {
		t.Fatalf("files ran again: %v", ev)
	}
	w.del(kApp, "again", 1).status(204)
	w.del(kSet, "v1", 1).status(204)
	w.del(kSQLite, "db", 1).status(204)
	raw, err := w.sim.Admin.Databases()
	if err != nil || contains(raw, dbUID) {
		t.Fatalf("a deleted database is still listed: %v %s", err, raw)
	}
	admin.do("GET", "/_sim/databases/"+dbUID, nil, nil).refused("resource_not_found", 404)
	if got := w.sim.Host.State().DBs; got == nil {
		t.Fatal("the host has no databases")
	} else if d, _ := got.Existing(dbUID); d != nil {
		t.Fatal("the deleted database's real database was not dropped")
	}
	// A new database of the same name is a new, empty database.
	w.create(kSQLite, "db", map[string]any{}).status(201)
	if d := w.database("db"); d.Created || d.ledger() != "" {
		t.Fatalf("the new database inherited %+v", d)
	}
}

// Import adopts an application like apply: the prefix proof and the suffix run.
func TestImportingAnApplicationRunsItsSuffix(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2)
	f := w.f(kApp)
	w.c.do("POST", resPath(f, "app")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, "app", w.space, w.appSpec("db", "v1"), map[string]any{"nativeId": "native-app"})).status(201)
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path {
		t.Fatalf("after the import: %s", d.ledger())
	}
	w.set("bad", m2, m1)
	w.c.do("POST", resPath(f, "other")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
		body(f, "other", w.space, w.appSpec("db", "bad"), map[string]any{"nativeId": "native-other"})).refused("migration_required", 409)
}

// Applications of one database are serialized: applied concurrently, every
// file runs exactly once and the ledger has no duplicate.
func TestConcurrentApplicationsOfOneDatabaseAreSerialized(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2, m3)
	const n = 4
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = w.apply(fmt.Sprintf("app%d", i), "db", "v1").code
		}()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 201 {
			t.Fatalf("application %d answered %d", i, c)
		}
	}
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path+","+m3.path || d.tables() != "posts:1,users:1" {
		t.Fatalf("ledger %s, tables %s", d.ledger(), d.tables())
	}
	if ev := w.migrationEvents(); ev[m1.path] != 1 || ev[m2.path] != 1 || ev[m3.path] != 1 {
		t.Fatalf("files ran %v times", ev)
	}
}

// On a --db file the databases outlive the host: a restart finds the ledger and
// the tables, and a fourth file runs alone.
func TestMigrationsSurviveARestartOnADatabaseFile(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "host.db")
	w := newMigrationWorld(t, hostsim.Config{DBPath: dbPath})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2, m3)
	w.apply("app1", "db", "v1").status(201)
	d := w.database("db")
	if !strings.HasPrefix(d.File, dbPath+".databases"+string(filepath.Separator)) || !strings.HasSuffix(d.File, ".sqlite") {
		t.Fatalf("the database's file is %q", d.File)
	}
	if err := w.sim.Host.Close(); err != nil {
		t.Fatal(err)
	}
	w.sim = hostsimtest.Start(t, hostsim.Config{Catalog: w.cat, DBPath: dbPath})
	w.c = newClient(t, w.sim.URL, "sim-primary")
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path+","+m3.path || d.tables() != "posts:1,users:1" {
		t.Fatalf("after the restart: ledger %s, tables %s", d.ledger(), d.tables())
	}
	if r := readyIn(t, w.read(kApp, "app1")); r.Status != "True" {
		t.Fatalf("app1 after the restart: %+v", r)
	}
	w.set("v2", m1, m2, m3, m4)
	w.apply("app2", "db", "v2").status(201)
	// The journal lives in memory: this process ran the fourth file alone.
	if ev := w.migrationEvents(); ev[m4.path] != 1 || len(ev) != 1 {
		t.Fatalf("after the restart files ran %v times", ev)
	}
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path+","+m3.path+","+m4.path {
		t.Fatalf("after the fourth file: %s", d.ledger())
	}
}

// The dashboard's page of a database shows its ledger and its tables' shape
// (never their rows), and its feed the files applied and the one that failed.
func TestDashboardShowsADatabasesLedgerAndTables(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	b := newBrowser(t, w.sim)
	page := "/resources/tenant-a/prod/" + w.f(kSQLite).Ref.APIVersion + "/" + kSQLite + "/db"
	b.get(page).status(200).has("<h2>Database", "in the host's memory", "No migration has run on this database yet")
	w.set("v1", m1, m2)
	w.apply("app", "db", "v1").status(201)
	w.set("broken", m1, m2, sqlFile{"migrations/0003_broken.sql", "CREATE TABLE nope (;"})
	w.apply("app2", "db", "broken").refused("invalid_argument", 400)
	d := w.database("db")
	p := b.get(page).status(200).has("Migration ledger", m1.path, m2.path, d.Ledger[0].Digest,
		`<td class="mono">users</td><td>table</td><td class="num">1</td>`, "id INTEGER <b>pk</b>", "name TEXT not null",
		`<td class="mono">posts</td>`,
		`migration file 1 of 2 &#34;`+m1.path+`&#34; applied to SQLiteDatabase db in tenant-a/prod by SQLiteMigrationApplication app (ledger entry 1)`,
		`migration file 3 of 3 &#34;migrations/0003_broken.sql&#34; failed on SQLiteDatabase db in tenant-a/prod for SQLiteMigrationApplication app2`)
	p.lacks("ada-lovelace-row-value", "No migration has run") // a row's value never shows
	// Other kinds have no database section.
	b.get("/resources/tenant-a/prod/" + w.f(kApp).Ref.APIVersion + "/" + kApp + "/app").status(200).lacks("<h2>Database")
}

// A file that runs too long is interrupted and rolled back alone:
// deadline_exceeded, answered not retryable, naming the file.
func TestAFileThatRunsTooLongIsInterrupted(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{MigrationTimeout: 200 * time.Millisecond})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	endless := sqlFile{"migrations/0002_endless.sql", "CREATE TABLE n (x);\nWITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c) INSERT INTO n SELECT i FROM c;"}
	w.set("slow", m1, endless)
	r := w.apply("app", "db", "slow").refused("deadline_exceeded", 504)
	if !contains(r.body, "0002_endless.sql") || !contains(r.body, `"hostCode":"migration_file_timeout"`) || !contains(r.body, `"retryable":false`) ||
		!contains(r.body, "interrupted") || !contains(r.body, "the host's 200ms limit") {
		t.Fatalf("the timeout (the configured 200ms, not the default): %s", r.body)
	}
	if d := w.database("db"); d.ledger() != m1.path || d.tables() != "users:1" {
		t.Fatalf("after the timeout: ledger %s, tables %s", d.ledger(), d.tables())
	}
}

// A migration application whose database cannot be read (its directory, beside
// the --db file, is a plain file where the host would make it) is refused whole:
// internal_error naming the directory, no file run, no application stored.
// (Restarted that way, the host refuses to start, naming it.)
func TestAnApplicationWhoseDatabaseCannotBeReadIsRefusedWhole(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "host.db")
	w := newMigrationWorld(t, hostsim.Config{DBPath: dbPath})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1)
	dir := dbPath + ".databases" // made by the first application's open
	if err := os.WriteFile(dir, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := w.apply("app", "db", "v1").refused("internal_error", 500); !contains(r.body, "create the databases directory "+dir) {
		t.Fatalf("the application over a database that cannot be read: %s", r.body)
	}
	w.read(kApp, "app").refused("resource_not_found", 404)
	if ev := w.migrationEvents(); len(ev) != 0 {
		t.Fatalf("files ran: %v", ev)
	}
}
