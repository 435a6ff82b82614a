package hostsim_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

// A set of three files is applied to a real database; a fourth file runs
// alone; the shorter application is then no longer Ready (docs/protocol.md#migrations).
func TestMigrationSetsApplyTheUnappliedSuffix(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	if d := w.database("db"); d.Created || d.ledger() != "" || d.tables() != "" {
		t.Fatalf("a new database has content: %+v", d)
	}
	w.set("v1", m1, m2, m3)
	if r := readyIn(t, w.apply("app1", "db", "v1").status(201)); r.Status != "True" || r.Reason != "Available" {
		t.Fatalf("an applied set is not Ready: %+v", r)
	}
	d := w.database("db")
	if d.ledger() != m1.path+","+m2.path+","+m3.path || d.tables() != "posts:1,users:1" || !d.Created || d.File != "" {
		t.Fatalf("after v1 the database is %+v (ledger %s, tables %s)", d, d.ledger(), d.tables())
	}
	if d.Ledger[1].Seq != 2 || d.Ledger[1].ManifestDigest == "" || !strings.HasPrefix(d.Ledger[1].Digest, "sha256:") {
		t.Fatalf("ledger entry 2 is %+v", d.Ledger[1])
	}
	_, _, rev1 := meta(t, w.read(kApp, "app1"))

	// A fourth file: only it runs (each file creates a table, so a file run twice would fail).
	w.set("v2", m1, m2, m3, m4)
	w.apply("app2", "db", "v2").status(201)
	if d := w.database("db"); d.ledger() != m1.path+","+m2.path+","+m3.path+","+m4.path || d.tables() != "posts:1,tags:0,users:1" {
		t.Fatalf("after v2 the database is ledger %s, tables %s", d.ledger(), d.tables())
	}
	if ev := w.migrationEvents(); ev[m1.path] != 1 || ev[m3.path] != 1 || ev[m4.path] != 1 {
		t.Fatalf("files ran %v times; each exactly once", ev)
	}
	// app1's set is now shorter than the ledger: not Ready, by derived rendering (revision +1, generation kept).
	r := readyIn(t, w.read(kApp, "app1").status(200))
	if r.Status != "False" || r.Reason != "ExternalChange" || !strings.Contains(r.Message, m4.path) || r.Generation != "1" || r.Revision == rev1 {
		t.Fatalf("app1 after v2: %+v (revision was %s)", r, rev1)
	}
	if r := readyIn(t, w.read(kApp, "app2")); r.Status != "True" {
		t.Fatalf("app2: %+v", r)
	}
	// Applying the same set again runs nothing and is Ready.
	w.apply("app3", "db", "v2").status(201)
	if ev := w.migrationEvents(); ev[m4.path] != 1 {
		t.Fatalf("an application of an applied set ran files again: %v", ev)
	}
	// A reset forgets every resource and drops every database with them.
	uid := w.uid(kSQLite, "db")
	if err := w.sim.Admin.Reset(); err != nil {
		t.Fatal(err)
	}
	if d, _ := w.sim.Host.State().DBs.Existing(uid); d != nil {
		t.Fatal("a reset kept a database")
	}
}

// A set that rewrites, moves or drops an applied file is migration_required
// and changes nothing: no SQL, no resource, no ledger entry.
func TestADivergedSetIsMigrationRequiredAndChangesNothing(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("v1", m1, m2, m3)
	w.apply("app1", "db", "v1").status(201)
	before, mutations, events := w.database("db"), w.mutations(), w.migrationEvents()
	for _, c := range []struct {
		name  string
		files []sqlFile
		says  string
	}{
		{"rewritten", []sqlFile{m1, m2new, m3, m4}, "(rewritten)"},
		{"moved", []sqlFile{m2, m1, m3, m4}, "(moved)"},
		{"dropped", []sqlFile{m1, m3, m4}, "absent from the set"},
		{"shorter", []sqlFile{m1, m2}, "lists only 2 file(s)"},
	} {
		w.set("s-"+c.name, c.files...)
		r := w.apply("a-"+c.name, "db", "s-"+c.name).refused("migration_required", 409)
		var env struct {
			Error struct {
				Message string
				Details struct{ Field string }
			}
		}
		_ = json.Unmarshal(r.body, &env)
		if !strings.Contains(env.Error.Message, c.says) || !strings.Contains(env.Error.Message, `SQLiteMigrationApplication "a-`+c.name+`"`) ||
			env.Error.Details.Field != "/migrationSet" {
			t.Fatalf("%s: %s", c.name, r.body)
		}
		w.read(kApp, "a-"+c.name).refused("resource_not_found", 404)
	}
	after := w.database("db")
	if after.ledger() != before.ledger() || after.tables() != before.tables() {
		t.Fatalf("a refused set changed the database: ledger %s → %s, tables %s → %s", before.ledger(), after.ledger(), before.tables(), after.tables())
	}
	// The sets were created (4 mutations); the refused applications changed nothing.
	if m := w.mutations(); m != mutations+4 {
		t.Fatalf("mutations %d → %d, want +4 (the sets only)", mutations, m)
	}
	if ev := w.migrationEvents(); len(ev) != len(events) {
		t.Fatalf("a refused set ran files: %v → %v", events, ev)
	}
}

// A file with an SQL error fails naming the file; it rolls back alone, the
// files before it stay, and a fixed set resumes at that file.
func TestAFailingFileRollsBackAloneAndTheFixResumesThere(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("broken", m1, m2bad, m3)
	mutations := w.mutations()
	r := w.apply("app", "db", "broken").refused("invalid_argument", 400)
	var env struct {
		Error struct {
			Message, HostCode string
			Retryable         bool
			Details           struct{ Field string }
		}
	}
	_ = json.Unmarshal(r.body, &env)
	for _, want := range []string{`migration file 2 of 3, "` + m2bad.path + `"`, "no such table: postz", "rolled back alone",
		"keeps the 1 file(s) applied before it", "resumes at this file", `SQLiteMigrationSet "broken"`} {
		if !strings.Contains(env.Error.Message, want) {
			t.Fatalf("the failure does not say %q: %s", want, env.Error.Message)
		}
	}
	if env.Error.HostCode != "migration_file_failed" || env.Error.Details.Field != "/migrationSet" || env.Error.Retryable {
		t.Fatalf("the failure's envelope: %s", r.body)
	}
	w.read(kApp, "app").refused("resource_not_found", 404)
	if m := w.mutations(); m != mutations {
		t.Fatalf("a failed application counted a mutation: %d → %d", mutations, m)
	}
	d := w.database("db")
	if d.ledger() != m1.path || d.tables() != "users:1" {
		t.Fatalf("after the failure: ledger %s, tables %s; want file 1 only and no trace of file 2", d.ledger(), d.tables())
	}
	// The same broken set fails again at the same file, without running file 1 again.
	w.apply("app", "db", "broken").refused("invalid_argument", 400)
	// The fix: a new set with file 2 corrected resumes at file 2.
	w.set("fixed", m1, m2, m3)
	if r := readyIn(t, w.apply("app", "db", "fixed").status(201)); r.Status != "True" {
		t.Fatalf("the fixed set: %+v", r)
	}
	d = w.database("db")
	if d.ledger() != m1.path+","+m2.path+","+m3.path || d.tables() != "posts:1,users:1" {
		t.Fatalf("after the fix: ledger %s, tables %s", d.ledger(), d.tables())
	}
	if ev := w.migrationEvents(); ev[m1.path] != 1 || ev[m2.path] != 1 || ev[m3.path] != 1 {
		t.Fatalf("files ran %v times; each exactly once", ev)
	}
	// The broken set is no application's: it can go.
	w.del(kSet, "broken", 1).status(204)
}

// A file may not end the host's transaction or attach another database; the
// refusal names the file and the statement's kind.
func TestAMigrationFileCannotEscapeItsTransaction(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("escape", m1, sqlFile{"migrations/0002_commit.sql", "CREATE TABLE half (x); COMMIT; CREATE TABLE other (y);"})
	r := w.apply("app", "db", "escape").refused("invalid_argument", 400)
	if !contains(r.body, "0002_commit.sql") || !contains(r.body, "transaction control (COMMIT)") {
		t.Fatalf("the refusal: %s", r.body)
	}
	if d := w.database("db"); d.ledger() != m1.path || d.tables() != "users:1" {
		t.Fatalf("after the refused file: ledger %s, tables %s", d.ledger(), d.tables())
	}
}

// A MigrationBundle's files are exactly application/sql; a set names a
// committed MigrationBundle the tenant holds.
func TestMigrationSetsNameAMigrationBundle(t *testing.T) {
	w := newMigrationWorld(t, hostsim.Config{})
	r := w.c.start(migrationManifest("text/plain", m1)).refused("artifact_invalid", 400)
	if !contains(r.body, "/manifest/files/0/mediaType") || !contains(r.body, "application/sql") {
		t.Fatalf("a text/plain migration file: %s", r.body)
	}
	w.refused(kSet, "worker", map[string]any{"manifestDigest": w.c.upload(allHandlers)}, "artifact_invalid", 400,
		"is a WorkerBundle manifest; this reference needs a MigrationBundle manifest")
	w.refused(kSet, "nothing", map[string]any{"manifestDigest": "sha256:" + strings.Repeat("0", 64)}, "artifact_missing", 404, "/manifestDigest")
	digest := w.c.uploadMigrations(m1)
	other := newClient(t, w.sim.URL, "sim-other-tenant")
	ow := &migrationWorld{world: &world{t: t, c: other, cat: w.cat, space: "prod"}, sim: w.sim}
	ow.refused(kSet, "stolen", map[string]any{"manifestDigest": digest}, "artifact_missing", 404, "not held by this tenant")
}

// An application is the Form that references its set's manifest: the set is held
// to the lowest of the set's and the application's ceilings, as a version's
// bundle is, so a profile's maximumBundleBytes on the application applies.
func TestAnApplicationHoldsItsSetToItsOwnBundleCeiling(t *testing.T) {
	size := int64(len(m1.sql) + len(m2.sql))
	path := filepath.Join(t.TempDir(), "small-apps.json")
	doc := fmt.Sprintf(`{"name": "small-apps", "extends": "full", "limits": {"SQLiteMigrationApplication": {"maximumBundleBytes": %d}}}`, size-1)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	w := newMigrationWorld(t, hostsim.Config{Profile: path})
	w.create(kSQLite, "db", map[string]any{}).status(201)
	w.set("fits", m1)
	w.set("over", m1, m2)
	w.apply("small", "db", "fits").status(201)
	w.refused(kApp, "big", w.appSpec("db", "over"), "artifact_invalid", 400,
		fmt.Sprintf(`declared file sizes sum to %d bytes, over maximumBundleBytes %d (profile \"small-apps\", limits of SQLiteMigrationApplication)`, size, size-1))
	if d := w.database("db"); d.ledger() != m1.path {
		t.Fatalf("the refused application changed the ledger: %s", d.ledger())
	}
}

// refused asserts a create is refused with code and status saying says.
func (w *migrationWorld) refused(kind, name string, spec map[string]any, code string, status int, says string) {
	w.t.Helper()
	if r := w.create(kind, name, spec).refused(code, status); !contains(r.body, says) {
		w.t.Fatalf("%s %s: %s does not say %q", kind, name, r.body, says)
	}
}
