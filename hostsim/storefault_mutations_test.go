package hostsim_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
	"github.com/takokit/takokit/hostsim/internal/sweeptest"
)

// TestStoreFaultsLeaveEveryChangeWhole: a change whose n-th data statement
// (store.fail) or n-th read inside its writes (store.read-fail, the mirror's
// lookups included) fails answers internal_error 500 naming it and the fault,
// changes nothing (what it touches reads back byte for byte as before, no
// mutation counted), and the same change sent again succeeds — for every
// statement and read of the change, on a host on a database file (where every
// record is a statement), until n passes the last one. The changes: an update,
// the prepare of one (it stores the binding it mints) and a delete; the create
// and the delete of a resource whose relations pin three others; the create and
// the import of a migration application (the files a failed run applied stay,
// each its own transaction), a second application that migrates the database
// further (the first must be re-rendered once when it is sent again), the
// re-apply of one under relations.no-repin (its commit reads the stored pins)
// and, on the async probe, the poll that commits an accepted application; the create of a version serving static assets; a
// deployment's update to a second version; the start of an artifact upload, a
// blob upload into it and its commit; and, on the async profile, the polls that
// commit an accepted create and an accepted delete, and the cancel of an
// accepted create. A step that dropped an error, or read a failed lookup as
// "nothing there", would store half a change or answer otherwise
// (docs/protocol.md#faults).
func TestStoreFaultsLeaveEveryChangeWhole(t *testing.T) {
	var sw sweeptest.Sweep
	for _, c := range changeCases {
		for _, k := range storeFaults {
			t.Run(c.name+"/"+k.fault, func(t *testing.T) {
				t.Parallel()
				sweepChange(t, &sw, c, k.fault, k.says)
			})
		}
	}
}

// changeCase is one change the sweep fails: start builds a host on a database
// file and what precedes the change, and returns what the change touches (read)
// and the change (send: a fresh request each call, its prepare already made).
type changeCase struct {
	name  string
	route string // the change's route: the fault fires there, not on its prepare
	start func(t *testing.T, db string) (sim *hostsimtest.Sim, read func() []byte, send func() *reply)
	// settled, when set, is asked after the change sent again succeeded: what
	// must hold then ("" = it does)
	settled func(t *testing.T, sim *hostsimtest.Sim) string
}

var changeCases = []changeCase{
	{name: "update", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f := plainHost(t, db)
		spec := changed(t, f, fixture(t, f))
		return sim, func() []byte { return c.read(f, "orders", "prod").status(200).body }, func() *reply {
			pd := c.prepare(f, "orders", "prod", spec, 1)
			return c.do("PUT", resPath(f, "orders"), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": newKey()},
				body(f, "orders", "prod", spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
		}
	}},
	{name: "prepare of an update", route: "prepare", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f := plainHost(t, db)
		spec := changed(t, f, fixture(t, f))
		return sim, func() []byte { return c.read(f, "orders", "prod").status(200).body }, func() *reply {
			return c.do("POST", api+"/resources/prepare", map[string]string{"Takoform-Expected-Generation": "1"}, body(f, "orders", "prod", spec, nil))
		}
	}},
	{name: "commit of an upload", route: "artifact-commit", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t), DBPath: db})
		alice, carol := newClient(t, sim.URL, "sim-primary"), newClient(t, sim.URL, "sim-other-tenant")
		js := []byte(allHandlers)
		blob := wire.RawDigest(js)
		start := manifestOf("index.js", "application/javascript+module", len(js), blob)
		// another tenant's commit of the same manifest names its digest; this
		// tenant holds nothing of it until its own commit
		other := fmt.Sprint(carol.start(start).status(201).json()["uploadId"])
		carol.putBlob(other, blob, js).status(201)
		digest := fmt.Sprint(carol.commit(other, newKey()).status(201).json()["manifestDigest"])
		id := fmt.Sprint(alice.start(start).status(201).json()["uploadId"])
		alice.putBlob(id, blob, js).status(201)
		return sim, func() []byte { return shown(alice.do("GET", api+"/artifacts/"+digest, nil, nil)) },
			func() *reply { return alice.commit(id, newKey()) }
	}},
	{name: "accepted create", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f, read := asyncHost(t, db)
		return sim, read, func() *reply { return c.create(f, "orders", "prod", fixture(t, f)) }
	}},
	{name: "accepted delete", route: "delete", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f, read := asyncHost(t, db)
		made := accepted(t, c.create(f, "orders", "prod", fixture(t, f)))
		for d, _ := poll(t, c, made.ID); !d.Done; d, _ = poll(t, c, made.ID) {
		}
		return sim, read, func() *reply { return c.del(f, "orders", "prod", 1) }
	}},
	{name: "poll that commits an accepted create", route: "operation", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f, read := asyncHost(t, db)
		return sim, read, committingPoll(t, c, accepted(t, c.create(f, "orders", "prod", fixture(t, f))))
	}},
	{name: "poll that commits an accepted delete", route: "operation", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f, read := asyncHost(t, db)
		made := accepted(t, c.create(f, "orders", "prod", fixture(t, f)))
		for d, _ := poll(t, c, made.ID); !d.Done; d, _ = poll(t, c, made.ID) {
		}
		return sim, read, committingPoll(t, c, accepted(t, c.del(f, "orders", "prod", 1)))
	}},
	{name: "cancel of an accepted create", route: "operation-cancel", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f, read := asyncHost(t, db)
		op := accepted(t, c.create(f, "orders", "prod", fixture(t, f)))
		return sim, read, func() *reply {
			return c.do("POST", api+"/operations/"+op.ID+"/cancel", map[string]string{"Idempotency-Key": newKey()}, nil)
		}
	}},
	{name: "blob upload into a session", route: "artifact-blob-upload", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t), DBPath: db})
		c := newClient(t, sim.URL, "sim-primary")
		js := []byte(allHandlers)
		blob := wire.RawDigest(js)
		id := fmt.Sprint(c.start(manifestOf("index.js", "application/javascript+module", len(js), blob)).status(201).json()["uploadId"])
		return sim, func() []byte { return []byte(fmt.Sprint(c.headBlob(blob))) }, func() *reply { return c.putBlob(id, blob, js) }
	}},
	{name: "start of an upload", route: "artifact-upload-start", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim := hostsimtest.Start(t, hostsim.Config{Catalog: testCatalog(t), DBPath: db})
		c := newClient(t, sim.URL, "sim-primary")
		js := []byte(allHandlers)
		blob := wire.RawDigest(js)
		return sim, func() []byte { return []byte(fmt.Sprint(c.headBlob(blob))) }, func() *reply {
			return c.start(manifestOf("index.js", "application/javascript+module", len(js), blob))
		}
	}},
	{name: "delete", route: "delete", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, c, f := plainHost(t, db)
		return sim, func() []byte { return c.read(f, "orders", "prod").status(200).body },
			func() *reply { return c.del(f, "orders", "prod", 1) }
	}},
	{name: "create with relations", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, w := deployedWorld(t, hostsim.Config{DBPath: db})
		spec := consumerSpec(w, "api", "events", "dead")
		return sim, func() []byte { return relatedReads(w) }, func() *reply {
			f := w.f(kConsumer)
			pd := w.c.prepare(f, "qc", w.space, spec, 0)
			return w.c.do("PUT", resPath(f, "qc"), map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
				body(f, "qc", w.space, spec, map[string]any{"review": map[string]any{"prepareDigest": pd}}))
		}
	}},
	{name: "delete with relations", route: "delete", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, w := deployedWorld(t, hostsim.Config{DBPath: db})
		w.create(kConsumer, "qc", consumerSpec(w, "api", "events", "dead")).status(201)
		return sim, func() []byte { return relatedReads(w) }, func() *reply { return w.del(kConsumer, "qc", 1) }
	}},
	{name: "create of an application that migrates", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		w := newMigrationWorld(t, hostsim.Config{DBPath: db})
		w.create(kSQLite, "db", map[string]any{}).status(201)
		w.set("v1", m1, m2, m3)
		return w.sim, func() []byte { return migrationReads(w) }, func() *reply { return w.apply("app", "db", "v1") }
	}, settled: eachFileJournalledOnce},
	{name: "create of a second application that migrates its database further", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		w := newMigrationWorld(t, hostsim.Config{DBPath: db})
		w.create(kSQLite, "db", map[string]any{}).status(201)
		w.set("v1", m1, m2)
		w.apply("first", "db", "v1").status(201)
		w.set("v2", m1, m2, m3)
		// the first application's Ready is derived from the ledger when read,
		// and the ledger keeps what a failed run applied: its stored revision
		// is what a failed write must leave alone
		return w.sim, func() []byte {
			_, _, rev := meta(t, w.read(kApp, "first"))
			return fmt.Appendf(migrationReads(w), "first: revision %s\n", rev)
		}, func() *reply { return w.apply("app", "db", "v2") }
	}, settled: func(t *testing.T, sim *hostsimtest.Sim) string {
		if why := eachFileJournalledOnce(t, sim); why != "" {
			return why
		}
		w := migrationWorldOn(t, sim)
		// the first application is re-rendered once: its set no longer ends the ledger
		r := w.read(kApp, "first")
		if _, _, rev := meta(w.t, r); rev != "2" || readyIn(w.t, r).HostReason != "ledger-ahead-of-set" {
			return fmt.Sprintf("the first application is at revision %s, want 2 (re-rendered once, ledger-ahead-of-set): %s", rev, r.body)
		}
		return ""
	}},
	{name: "poll that commits an accepted application that migrates", route: "operation", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		w := newMigrationWorld(t, hostsim.Config{DBPath: db, ConformanceProbes: true})
		w.create(kSQLite, "db", map[string]any{}).status(201)
		w.set("v1", m1, m2, m3)
		return w.sim, func() []byte { return migrationReads(w) }, committingPoll(t, w.c, w.applyAsync("app", "db", "v1"))
	}, settled: eachFileJournalledOnce},
	{name: "re-apply of an application that keeps its stored pins", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		w := newMigrationWorld(t, hostsim.Config{DBPath: db})
		w.create(kSQLite, "db", map[string]any{}).status(201)
		w.set("v1", m1, m2, m3)
		w.apply("app", "db", "v1").status(201)
		// the commit reads the stored pins (store.PinsOf) instead of carrying new ones
		arm(t, w.sim, "relations.no-repin")
		return w.sim, func() []byte { return migrationReads(w) }, func() *reply {
			return w.c.update(w.f(kApp), "app", w.space, w.appSpec("db", "v1"), 1)
		}
	}, settled: eachFileJournalledOnce},
	{name: "import of an application that migrates", route: "import", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		w := newMigrationWorld(t, hostsim.Config{DBPath: db})
		w.create(kSQLite, "db", map[string]any{}).status(201)
		w.set("v1", m1, m2, m3)
		f := w.f(kApp)
		return w.sim, func() []byte { return migrationReads(w) }, func() *reply {
			return w.c.do("POST", resPath(f, "app")+"/import", map[string]string{"If-None-Match": "*", "Idempotency-Key": newKey()},
				body(f, "app", w.space, w.appSpec("db", "v1"), map[string]any{"nativeId": "native-app"}))
		}
	}, settled: eachFileJournalledOnce},
	{name: "create of a version serving static assets", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, w := deployedWorld(t, hostsim.Config{DBPath: db})
		w.site("spa", "index.html", "app.js")
		return sim, func() []byte {
				return reads(w, [2]string{kVersion, "v-spa"}, [2]string{kSite, "spa"}, [2]string{kWorker, "api"})
			},
			func() *reply { return w.create(kVersion, "v-spa", w.assetVersion("spa", "single_page_application")) }
	}},
	{name: "update of a deployment to a second version", route: "apply", start: func(t *testing.T, db string) (*hostsimtest.Sim, func() []byte, func() *reply) {
		sim, w := deployedWorld(t, hostsim.Config{DBPath: db})
		w.version("v2", "api", "b1", []string{"fetch", "scheduled", "queue"}, w.wholeVersion()).status(201)
		return sim, func() []byte {
				return reads(w, [2]string{kDeployment, "d"}, [2]string{kWorker, "api"}, [2]string{kVersion, "v1"}, [2]string{kVersion, "v2"})
			}, func() *reply {
				return w.c.update(w.f(kDeployment), "d", w.space, w.deployment("api", map[string]int{"v1": 5000, "v2": 5000}), 1)
			}
	}},
}

// reads reads each (kind, name) of w, as shown.
func reads(w *world, rs ...[2]string) []byte {
	var b bytes.Buffer
	for _, r := range rs {
		fmt.Fprintf(&b, "%s %s: %s\n", r[0], r[1], shown(w.read(r[0], r[1])))
	}
	return b.Bytes()
}

// shown is an answer's status and body, request ids masked.
func shown(r *reply) []byte {
	return requestIDs.ReplaceAll([]byte(fmt.Sprintf("%d %s", r.code, r.body)), []byte("<request id>"))
}

// migrationReads reads the application app and its database db. The files a
// failed run applied before the failure stay in the database's ledger, each its
// own transaction (docs/protocol.md#migrations), so the ledger is not compared:
// the request sent again resumes after them. What is read instead is whether
// the ledger is a prefix of the set m1, m2, m3 and the tables are exactly what
// its files made (a file half applied, or applied without its ledger row, is not).
func migrationReads(w *migrationWorld) []byte {
	d := w.database("db")
	made, ok := madeBy[d.ledger()]
	return append(reads(w.world, [2]string{kApp, "app"}, [2]string{kSQLite, "db"}),
		fmt.Sprintf("the ledger is a prefix of the set and the tables are what its files made: %v\n", ok && made == d.tables())...)
}

// eachFileJournalledOnce is the settled check of every migration change: each
// file the database db's ledger holds has one "migration" event in the journal,
// whichever request applied it. The journal tells of the database, and a
// file's commit there stays whatever fails after it (docs/protocol.md#migrations).
func eachFileJournalledOnce(t *testing.T, sim *hostsimtest.Sim) string {
	w := migrationWorldOn(t, sim)
	ev, d := w.migrationEvents(), w.database("db")
	for _, e := range d.Ledger {
		if ev[e.Path] != 1 {
			return fmt.Sprintf("the journal tells of the ledger's file %s %d times, want once (migration events per file: %v)", e.Path, ev[e.Path], ev)
		}
	}
	if len(ev) != len(d.Ledger) {
		return fmt.Sprintf("the journal tells of files the ledger does not hold: %v, ledger %s", ev, d.ledger())
	}
	return ""
}

// madeBy is, for each prefix of the set m1, m2, m3 as a ledger, the tables its
// files made.
var madeBy = map[string]string{"": "", m1.path: "users:1", m1.path + "," + m2.path: "posts:0,users:1",
	m1.path + "," + m2.path + "," + m3.path: "posts:1,users:1"}

// plainHost is a host on db holding one resource of an updatable Form, orders.
func plainHost(t *testing.T, db string) (*hostsimtest.Sim, *client, *catalog.Form) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db})
	c := newClient(t, sim.URL, "sim-primary")
	c.create(f, "orders", "prod", fixture(t, f)).status(201)
	return sim, c, f
}

// relatedReads reads the consumer and the three resources its relations name.
func relatedReads(w *world) []byte {
	return reads(w, [2]string{kConsumer, "qc"}, [2]string{kWorker, "api"}, [2]string{kQueue, "events"}, [2]string{kQueue, "dead"})
}

// asyncHost is a host on db under the async profile, with the updatable Form's
// client and a read of its resource orders, as shown.
func asyncHost(t *testing.T, db string) (*hostsimtest.Sim, *client, *catalog.Form, func() []byte) {
	cat := testCatalog(t)
	f := updatable(t, cat)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, DBPath: db, Profile: "async"})
	c := newClient(t, sim.URL, "sim-primary")
	return sim, c, f, func() []byte { return shown(c.read(f, "orders", "prod")) }
}

// committingPoll polls the accepted operation op once (the async probe's first
// poll only counts) and returns its next poll, the one that commits.
func committingPoll(t *testing.T, c *client, op opDoc) func() *reply {
	if d, _ := poll(t, c, op.ID); d.Done {
		t.Fatalf("operation %s was done at its first poll", op.ID)
	}
	return func() *reply { return c.do("GET", api+"/operations/"+op.ID, nil, nil) }
}

// requestIDs are the request ids of refusals, new with every request.
var requestIDs = regexp.MustCompile(`req_[0-9a-f]+`)

// sweepChange fails each statement of c's kind in turn (see
// TestStoreFaultsLeaveEveryChangeWhole) and returns how many it failed; t is
// a case of sw, and stops at the first step after another case of sw failed,
// under -test.failfast.
func sweepChange(t *testing.T, sw *sweeptest.Sweep, c changeCase, name, says string) int {
	sw.Watch(t)
	failed := 0
	for n := 1; ; n++ {
		sw.Check(t)
		if n > 200 {
			t.Fatalf("%s: a %s of more than 200 statements of its kind; the sweep does not end", name, c.name)
		}
		sim, read, send := c.start(t, filepath.Join(t.TempDir(), "sim.db"))
		before := read()
		counted, _ := sim.Admin.Counters()
		arm(t, sim, fmt.Sprintf("%s=%d,route=%s,count=1", name, n, c.route))
		r := send()
		if r.code < 300 { // the change has fewer than n: nothing failed
			if failed == 0 {
				t.Fatalf("%s=1 did not fail the %s's first statement of its kind: %d %s", name, c.name, r.code, r.body)
			}
			if got := fired(t, sim, fmt.Sprintf("%s=%d", name, n)); got != 0 {
				t.Fatalf("%s=%d: the %s passed, yet the fault counted %d firings", name, n, c.name, got)
			}
			break
		}
		failed++
		r.refused("internal_error", 500)
		if msg := string(r.body); !strings.Contains(msg, fmt.Sprintf(says, n)) || !strings.Contains(msg, name+" fault") || strings.Contains(msg, "hostsim bug") {
			t.Fatalf("%s=%d: the 500 of the %s must name the injected statement and not call it a bug: %s", name, n, c.name, msg)
		}
		if got := fired(t, sim, fmt.Sprintf("%s=%d", name, n)); got != 1 {
			t.Fatalf("%s=%d: the fault counted %d firings, want 1", name, n, got)
		}
		if after, _ := sim.Admin.Counters(); after.Mutations != counted.Mutations {
			t.Fatalf("%s=%d: a failed %s counted a mutation (%d -> %d)", name, n, c.name, counted.Mutations, after.Mutations)
		}
		if now := read(); !bytes.Equal(now, before) {
			t.Fatalf("%s=%d: the failed %s changed what it touches:\nbefore %s\nnow    %s", name, n, c.name, before, now)
		}
		if r := send(); r.code >= 300 {
			t.Fatalf("%s=%d: the %s sent again: %d %s", name, n, c.name, r.code, r.body)
		}
		if c.settled != nil {
			if why := c.settled(t, sim); why != "" {
				t.Fatalf("%s=%d: after the %s sent again, %s", name, n, c.name, why)
			}
		}
	}
	t.Logf("%s failed each of the %s's %d statements of its kind in turn", name, c.name, failed)
	return failed
}
