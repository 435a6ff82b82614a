package hostsim_test

import (
	"fmt"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// The faults of docs/protocol.md#migrations break their rule while armed, and
// the rule holds again once they are disarmed.
func TestMigrationFaultsBreakTheirRule(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.set("v1", m1, m2, m3)
	w.set("rewrite", m1, m2new, m3, m4)
	n := 0
	fresh := func() string { // a new database with nothing applied
		n++
		db := fmt.Sprintf("db%d", n)
		w.create(kSQLite, db, map[string]any{}).status(201)
		return db
	}
	fired := func(name string) int64 {
		c, err := w.sim.Admin.Counters()
		if err != nil {
			t.Fatal(err)
		}
		return c.Fired[name]
	}

	broken(t, w.sim, "migrations.fail-mid-suffix", func() {
		db := fresh()
		w.apply("app-"+db, db, "v1").status(201)
		if d := w.database(db); d.ledger() != m1.path+","+m2.path+","+m3.path {
			t.Fatalf("a whole set did not apply: %s", d.ledger())
		}
	}, func() {
		db := fresh()
		before := fired("migrations.fail-mid-suffix")
		r := w.apply("app-"+db, db, "v1").refused("invalid_argument", 400)
		if !contains(r.body, `migration file 2 of 3, \"`+m2.path) || !contains(r.body, "migrations.fail-mid-suffix") {
			t.Fatalf("the failure does not name file 2 and the fault: %s", r.body)
		}
		if d := w.database(db); d.ledger() != m1.path || d.tables() != "users:1" {
			t.Fatalf("the file before the failing one must stay, nothing after it: ledger %s, tables %s", d.ledger(), d.tables())
		}
		w.read(kApp, "app-"+db).refused("resource_not_found", 404)
		if fired("migrations.fail-mid-suffix") != before+1 {
			t.Fatal("the fault did not count its firing")
		}
	})

	broken(t, w.sim, "migrations.diverged-ledger-accepted", func() {
		db := fresh()
		w.apply("app-"+db, db, "v1").status(201)
		w.apply("bad-"+db, db, "rewrite").refused("migration_required", 409)
		if d := w.database(db); d.ledger() != m1.path+","+m2.path+","+m3.path {
			t.Fatalf("a refused set changed the ledger: %s", d.ledger())
		}
	}, func() {
		db := fresh()
		w.apply("app-"+db, db, "v1").status(201)
		before := fired("migrations.diverged-ledger-accepted")
		r := readyIn(t, w.apply("bad-"+db, db, "rewrite").status(201))
		if d := w.database(db); d.ledger() != m1.path+","+m2.path+","+m3.path+","+m4.path {
			t.Fatalf("the accepted diverged set ran %s", d.ledger())
		}
		if r.Status != "False" || r.HostReason != "ledger-diverged" {
			t.Fatalf("the diverged application renders %+v; its ledger is not its set", r)
		}
		if fired("migrations.diverged-ledger-accepted") < before+1 {
			t.Fatal("the fault did not count its firing")
		}
		// A diverged set shorter than the ledger runs nothing: the applied count
		// is at most the set's length.
		w.set("short-"+db, m2new)
		r = readyIn(t, w.apply("short-"+db, db, "short-"+db).status(201))
		if d := w.database(db); d.ledger() != m1.path+","+m2.path+","+m3.path+","+m4.path {
			t.Fatalf("the accepted shorter set changed the ledger: %s", d.ledger())
		}
		if r.Status != "False" || r.HostReason != "ledger-diverged" {
			t.Fatalf("the shorter diverged application renders %+v", r)
		}
	})
}

// A migration file's stored bytes are checked against the manifest before they
// run (docs/protocol.md#migrations): bytes the artifact faults let in under
// another digest, or of another size, refuse the application and run nothing.
func TestMigrationFileBytesAreCheckedBeforeTheyRun(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	for i, c := range []struct {
		name       string
		file       sqlFile
		sent, says string
	}{
		{"another digest", sqlFile{"m/0001_a.sql", "CREATE TABLE a (id INTEGER);"}, "CREATE TABLE b (id INTEGER);", "do not match the declared size"},
		{"another size", sqlFile{"m/0001_c.sql", "CREATE TABLE c (id INTEGER);"}, "CREATE TABLE cc (id INTEGER);", "do not match the declared size"},
	} {
		t.Run(c.name, func(t *testing.T) {
			arm(t, w.sim, "artifacts.unverified")
			arm(t, w.sim, "artifacts.trust-declared")
			id := fmt.Sprint(w.c.start(migrationManifest("application/sql", c.file)).status(201).json()["uploadId"])
			w.c.putBlob(id, wire.RawDigest([]byte(c.file.sql)), []byte(c.sent)).status(201)
			digest := fmt.Sprint(w.c.commit(id, newKey()).status(201).json()["manifestDigest"])
			disarm(t, w.sim)
			set, app := fmt.Sprintf("set%d", i), fmt.Sprintf("app%d", i)
			w.create(kSet, set, map[string]any{"manifestDigest": digest}).status(201)
			w.refused(kApp, app, w.appSpec("db", set), "artifact_invalid", 400, c.says)
			if d := w.database("db"); d.ledger() != "" || d.tables() != "" {
				t.Fatalf("bytes that are not the declared file ran: ledger %q, tables %q", d.ledger(), d.tables())
			}
		})
	}
}
