package hostsim_test

import (
	"fmt"
	"testing"

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
	})
}
