package sqldb

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var ctx = context.Background()

func entry(seq int64, path string) Entry {
	return Entry{Seq: seq, Path: path, Digest: "sha256:" + strings.Repeat("a", 64), ManifestDigest: "sha256:" + strings.Repeat("b", 64),
		AppliedAt: "2026-01-01T00:00:00Z"}
}

// apply runs one file as the next ledger entry.
func apply(t *testing.T, d *Database, path, sql string) error {
	t.Helper()
	var err error
	if xerr := d.Exclusive(ctx, func(s *Session) error {
		l, lerr := s.Ledger()
		if lerr != nil {
			return lerr
		}
		err = s.Apply(File{Path: path, SQL: []byte(sql)}, entry(int64(len(l))+1, path), 2*time.Second)
		return nil
	}); xerr != nil {
		t.Fatal(xerr)
	}
	return err
}

func tableNames(t *testing.T, d *Database) string {
	t.Helper()
	ts, err := d.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, x := range ts {
		names = append(names, x.Name)
	}
	return strings.Join(names, ",")
}

func ledgerPaths(t *testing.T, d *Database) string {
	t.Helper()
	l, err := d.Ledger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range l {
		paths = append(paths, e.Path)
	}
	return strings.Join(paths, ",")
}

func TestAFileAndItsLedgerRowCommitTogether(t *testing.T) {
	r := NewRegistry("")
	defer r.Close()
	if d, err := r.Existing("u-1"); d != nil || err != nil {
		t.Fatalf("a database exists before it was opened: %v %v", d, err)
	}
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	// Several statements in one file, comments included, all run.
	if err := apply(t, d, "0001.sql", "-- users\nCREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n"+
		"INSERT INTO users (name) VALUES ('a'), ('b');\nCREATE VIEW names AS SELECT name FROM users;"); err != nil {
		t.Fatal(err)
	}
	ts, err := d.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "names" || ts[0].Type != "view" || ts[0].Rows != nil ||
		ts[1].Name != "users" || ts[1].Rows == nil || *ts[1].Rows != 2 || len(ts[1].Columns) != 2 ||
		!ts[1].Columns[0].PrimaryKey || ts[1].Columns[1].Name != "name" || !ts[1].Columns[1].NotNull || ts[1].Columns[1].Type != "TEXT" {
		t.Fatalf("tables %+v", ts)
	}
	// A file failing at its second statement leaves neither its first statement nor a ledger row.
	err = apply(t, d, "0002.sql", "CREATE TABLE posts (id INTEGER);\nINSERT INTO nowhere VALUES (1);")
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "no such table: nowhere") {
		t.Fatalf("a failing file answered %v", err)
	}
	if got := tableNames(t, d); got != "names,users" {
		t.Fatalf("after a failed file the tables are %s", got)
	}
	if got := ledgerPaths(t, d); got != "0001.sql" {
		t.Fatalf("after a failed file the ledger is %s", got)
	}
	if err := apply(t, d, "0002.sql", "CREATE TABLE posts (id INTEGER);"); err != nil {
		t.Fatal(err)
	}
	if got := ledgerPaths(t, d); got != "0001.sql,0002.sql" {
		t.Fatalf("the ledger is %s", got)
	}
}

// What a migration file must not do is refused, and the file rolls back.
func TestTheGuardRefusesWhatAFileMustNotDo(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "host.db")
	if err := os.WriteFile(store, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := NewRegistry("")
	defer r.Close()
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ sql, denied string }{
		{"CREATE TABLE a (x); COMMIT;", "transaction control"},
		{"COMMIT; CREATE TABLE a (x);", "transaction control"},
		{"CREATE TABLE a (x); BEGIN;", "transaction control"},
		{"ROLLBACK;", "transaction control"},
		{"ATTACH DATABASE '" + store + "' AS host; CREATE TABLE host.x (y);", "ATTACH"},
		{"CREATE TABLE a (x); DELETE FROM " + LedgerTable + ";", "ledger"},
		{"INSERT INTO " + LedgerTable + " VALUES (9, 'x', 'y', 'z', 'w');", "ledger"},
		{"DROP TABLE " + LedgerTable + ";", "ledger"},
		{"ALTER TABLE " + LedgerTable + " ADD COLUMN evil TEXT;", "ledger"},
		{"CREATE TRIGGER t AFTER INSERT ON " + LedgerTable + " BEGIN SELECT 1; END;", "ledger"},
		{"PRAGMA journal_mode = OFF;", "PRAGMA journal_mode"},
		{"PRAGMA writable_schema = ON;", "PRAGMA writable_schema"},
		{"DETACH DATABASE temp;", "ATTACH or DETACH"},
		{"UPDATE " + LedgerTable + " SET path = 'x';", "ledger"},
		{"DELETE FROM TAKOFORM_MIGRATION_LEDGER;", "ledger"},
		{"CREATE TABLE IF NOT EXISTS " + LedgerTable + " (x);", "ledger"},
		{"CREATE TABLE IF NOT EXISTS TAKOFORM_MIGRATION_LEDGER (x);", "ledger"}, // SQLite passes the name as written
		{"CREATE INDEX l ON " + LedgerTable + " (path);", "ledger"},
		// the temp schema: a temp table named as the ledger would take the host's
		// next ledger row, a temp trigger on it would delete every row the host writes
		{"CREATE TEMP TABLE " + LedgerTable + " (seq INTEGER PRIMARY KEY, path, digest, manifest_digest, applied_at);", "a TEMP object (" + LedgerTable + ")"},
		{"CREATE TEMP TRIGGER t AFTER INSERT ON main." + LedgerTable + " BEGIN DELETE FROM main." + LedgerTable + "; END;", "a TEMP object (t)"},
		{"CREATE TEMP VIEW v AS SELECT 1;", "a TEMP object (v)"},
		{"CREATE TABLE temp.x (y);", "a TEMP object (x)"},
		{"CREATE TABLE a (x); CREATE TEMP TABLE s AS SELECT * FROM a; CREATE INDEX temp.i ON s (x);", "a TEMP object (s)"},
	} {
		err := apply(t, d, "bad.sql", c.sql)
		var fe *FileError
		if !errors.As(err, &fe) || !strings.Contains(fe.Denied, c.denied) {
			t.Fatalf("%q answered %v, want a refusal naming %q", c.sql, err, c.denied)
		}
		if want := "the host refused a statement: " + fe.Denied; err.Error() != want {
			t.Fatalf("%q: the refusal reads %q; want %q", c.sql, err, want)
		}
		if got := tableNames(t, d); got != "" {
			t.Fatalf("%q left tables %s", c.sql, got)
		}
		if got := ledgerPaths(t, d); got != "" {
			t.Fatalf("%q left ledger %s", c.sql, got)
		}
	}
	if fi, err := os.Stat(store); err != nil || fi.Size() != 0 {
		t.Fatalf("a refused ATTACH touched the host's store: %v %v", fi, err)
	}
	// A file's own error after a refusal is its own: nothing of the refusal stays.
	var fe *FileError
	if err := apply(t, d, "typo.sql", "CREATE TABEL a (x);"); !errors.As(err, &fe) || fe.Denied != "" || !strings.Contains(err.Error(), "syntax error") {
		t.Fatalf("a file with a syntax error after a refused one answered %#v (%v); want SQLite's own error", fe, err)
	}
	// Savepoints and the allowed pragmas (in any case) stay usable; reading the ledger is allowed.
	if err := apply(t, d, "ok.sql", "PRAGMA USER_VERSION = 3; SAVEPOINT s; CREATE TABLE a (x); RELEASE s; "+
		"CREATE TABLE b AS SELECT count(*) AS n FROM "+LedgerTable+";"); err != nil {
		t.Fatal(err)
	}
	// The host's own statements run unguarded after a refusal: the guard is off outside a file.
	if got := ledgerPaths(t, d); got != "ok.sql" {
		t.Fatalf("the ledger is %s", got)
	}
}

func TestAFileThatRunsTooLongIsInterruptedAndRolledBack(t *testing.T) {
	r := NewRegistry("")
	defer r.Close()
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	var fe *FileError
	err = d.Exclusive(ctx, func(s *Session) error {
		return s.Apply(File{Path: "slow.sql", SQL: []byte("CREATE TABLE a (x); WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c) " +
			"INSERT INTO a SELECT n FROM c;")}, entry(1, "slow.sql"), 200*time.Millisecond)
	})
	if !errors.As(err, &fe) || fe.Timeout != 200*time.Millisecond || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("an endless file answered %v", err)
	}
	if got := tableNames(t, d); got != "" {
		t.Fatalf("an interrupted file left tables %s", got)
	}
	if err := apply(t, d, "next.sql", "CREATE TABLE b (y);"); err != nil {
		t.Fatalf("the database is unusable after an interrupt: %v", err)
	}
}

// On disk a database outlives its host and is found again; a drop removes it.
func TestFileDatabasesOutliveTheHostUntilDropped(t *testing.T) {
	store := filepath.Join(t.TempDir(), "host.db")
	r := NewRegistry(store)
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, d, "0001.sql", "CREATE TABLE a (x);"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open("u-2"); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Open("u-1"); err == nil {
		t.Fatal("a closed registry opened a database")
	}
	r = NewRegistry(store)
	defer r.Close()
	if uids, _ := r.UIDs(); strings.Join(uids, ",") != "u-1,u-2" {
		t.Fatalf("after a restart the databases are %v", uids)
	}
	d, err = r.Existing("u-1")
	if err != nil || d == nil {
		t.Fatalf("after a restart u-1 is %v, %v", d, err)
	}
	if got := ledgerPaths(t, d); got != "0001.sql" {
		t.Fatalf("after a restart the ledger is %s", got)
	}
	if got := tableNames(t, d); got != "a" {
		t.Fatalf("after a restart the tables are %s", got)
	}
	if err := r.Sweep(func(uid string) (bool, error) { return uid == "u-1", nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(store+".databases", "u-2.sqlite")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a swept database's file remains: %v", err)
	}
	if err := r.Drop("u-1"); err != nil {
		t.Fatal(err)
	}
	if d, err := r.Existing("u-1"); d != nil || err != nil {
		t.Fatalf("a dropped database is still found: %v %v", d, err)
	}
	if left, _ := os.ReadDir(store + ".databases"); len(left) != 0 {
		t.Fatalf("files remain after the drops: %v", left)
	}
}

func TestMemoryDatabasesAreGoneWhenDropped(t *testing.T) {
	r := NewRegistry("")
	defer r.Close()
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := apply(t, d, "0001.sql", "CREATE TABLE a (x);"); err != nil {
		t.Fatal(err)
	}
	other, _ := r.Open("u-2")
	if got := tableNames(t, other); got != "" {
		t.Fatalf("two memory databases share tables: %s", got)
	}
	if err := r.DropAll(); err != nil {
		t.Fatal(err)
	}
	if d, _ := r.Existing("u-1"); d != nil {
		t.Fatal("a dropped memory database is still found")
	}
	if err := d.Exclusive(ctx, func(*Session) error { return nil }); err == nil {
		t.Fatal("a dropped database still runs sessions")
	}
	d, _ = r.Open("u-1")
	if got := ledgerPaths(t, d); got != "" {
		t.Fatalf("a database opened again after its drop kept its ledger: %s", got)
	}
	if _, err := r.Open("../evil"); err == nil {
		t.Fatal("a name that is not a uid opened a database")
	}
}

// The registry of a file store lists and drops only databases named by a uid:
// before the first database its directory does not exist and it lists none; a
// stray file whose name is no uid is neither listed nor dropped, and a name that
// is no uid never reaches a path outside the directory. A database opened twice
// is the one database.
func TestRegistryKeepsToItsUIDs(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "host.db")
	r := NewRegistry(store)
	defer r.Close()
	if uids, err := r.UIDs(); err != nil || len(uids) != 0 {
		t.Fatalf("before any database the registry lists %v, %v; want none and no error", uids, err)
	}
	if err := r.Sweep(func(string) (bool, error) { return false, nil }); err != nil {
		t.Fatalf("a sweep before any database: %v", err)
	}
	for _, uid := range []string{"u-3", "u-5", "u-2", "u-4"} { // listed sorted, not in the order opened
		if _, err := r.Open(uid); err != nil {
			t.Fatal(err)
		}
	}
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := r.Open("u-1"); err != nil || again != d {
		t.Fatalf("u-1 opened again is %p (%v); want the open database %p", again, err, d)
	}
	stray := filepath.Join(store+".databases", "-not a uid.sqlite")
	outside := filepath.Join(dir, "outside.sqlite")
	for _, f := range []string{stray, outside} {
		if err := os.WriteFile(f, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if uids, err := r.UIDs(); err != nil || strings.Join(uids, ",") != "u-1,u-2,u-3,u-4,u-5" {
		t.Fatalf("the registry lists %v, %v; want u-1 to u-5, sorted", uids, err)
	}
	for _, uid := range []string{"../outside", "-not a uid"} {
		if err := r.Drop(uid); err != nil {
			t.Fatalf("drop %q: %v", uid, err)
		}
	}
	for _, f := range []string{stray, outside} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("dropping names that are no uid removed %s: %v", f, err)
		}
	}
}

// A file that is not UTF-8 text is refused before any of it runs, and a store
// path holding characters a SQLite URI gives a meaning to ('?', '#', '%', a
// space) still names the database's own file.
func TestAFileMustBeUTF8AndAPathIsTakenLiterally(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my db?x=1#frag%41")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "host.db")
	r := NewRegistry(store)
	defer r.Close()
	d, err := r.Open("u-1")
	if err != nil {
		t.Fatal(err)
	}
	err = apply(t, d, "latin1.sql", "CREATE TABLE a (x); INSERT INTO a VALUES ('caf\xe9');")
	var fe *FileError
	if !errors.As(err, &fe) || err.Error() != "the file is not UTF-8 text" {
		t.Fatalf("a file that is not UTF-8 answered %v", err)
	}
	if got := tableNames(t, d) + "|" + ledgerPaths(t, d); got != "|" {
		t.Fatalf("a file that is not UTF-8 left %s", got)
	}
	if err := apply(t, d, "0001.sql", "CREATE TABLE a (x);"); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(store+".databases", "u-1.sqlite"); d.Path != want {
		t.Fatalf("the database's path is %q; want %q", d.Path, want)
	}
	if fi, err := os.Stat(d.Path); err != nil || fi.Size() == 0 {
		t.Fatalf("the database's own file: %v, %v", fi, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Fatalf("files beside the store's directory: %v; want the directory alone", entries)
	}
}
