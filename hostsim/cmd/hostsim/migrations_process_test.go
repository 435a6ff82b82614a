package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// sqlFile is one migration file: its manifest path and its SQL.
type sqlFile struct{ path, sql string }

var migrationFiles = []sqlFile{
	{"migrations/0001_users.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);"},
	{"migrations/0002_posts.sql", "CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER);"},
	{"migrations/0003_seed.sql", "INSERT INTO users (name) VALUES ('a'), ('b');"},
	{"migrations/0004_tags.sql", "CREATE TABLE tags (name TEXT PRIMARY KEY);"},
}

// must runs one request and requires the status want.
func (p *simProcess) must(t *testing.T, want int, method, path string, h map[string]string, body []byte) []byte {
	t.Helper()
	st, b, err := p.do(t, method, path, h, body)
	if err != nil || st != want {
		t.Fatalf("%s %s: %d %s %v, want %d", method, path, st, b, err, want)
	}
	return b
}

var processKeys int

func processKey() string { processKeys++; return fmt.Sprintf("process-key-%d", processKeys) }

// uploadSQL commits a MigrationBundle of files and returns its digest.
func (p *simProcess) uploadSQL(t *testing.T, files ...sqlFile) string {
	t.Helper()
	api := wire.DefaultLane.APIRoot
	var list []any
	for _, f := range files {
		list = append(list, map[string]any{"path": f.path, "mediaType": "application/sql", "size": len(f.sql), "digest": wire.RawDigest([]byte(f.sql))})
	}
	b, _ := json.Marshal(map[string]any{"manifest": map[string]any{"apiVersion": wire.ArtifactAPIVersion, "kind": "MigrationBundle", "files": list}})
	var st struct{ UploadID string }
	_ = json.Unmarshal(p.must(t, 201, "POST", api+"/artifacts/uploads", map[string]string{"Idempotency-Key": processKey()}, b), &st)
	for _, f := range files {
		_, _, _ = p.do(t, "PUT", api+"/artifacts/uploads/"+st.UploadID+"/blobs/"+wire.RawDigest([]byte(f.sql)), nil, []byte(f.sql))
	}
	st2, body, err := p.do(t, "POST", api+"/artifacts/uploads/"+st.UploadID+"/commit", map[string]string{"Idempotency-Key": processKey()}, nil)
	if err != nil || st2/100 != 2 {
		t.Fatalf("commit: %d %s %v", st2, body, err)
	}
	var c struct{ ManifestDigest string }
	_ = json.Unmarshal(body, &c)
	return c.ManifestDigest
}

// create prepares and creates kind/name in space prod.
func (p *simProcess) create(t *testing.T, cat *catalog.Catalog, kind, name string, spec map[string]any) {
	t.Helper()
	f := formOf(t, cat, kind)
	doc := map[string]any{"apiVersion": f.Ref.APIVersion, "kind": f.Ref.Kind, "form": map[string]any{"formRef": f.Ref},
		"metadata": map[string]any{"name": name, "space": "prod"}, "spec": spec}
	b, _ := json.Marshal(doc)
	var prep struct {
		Review struct{ PrepareDigest string }
	}
	_ = json.Unmarshal(p.must(t, 200, "POST", wire.DefaultLane.APIRoot+"/resources/prepare", nil, b), &prep)
	doc["review"] = map[string]any{"prepareDigest": prep.Review.PrepareDigest}
	b, _ = json.Marshal(doc)
	p.must(t, 201, "PUT", wire.DefaultLane.ResourcePath(f.Ref.APIVersion, f.Ref.Kind, name),
		map[string]string{"If-None-Match": "*", "Idempotency-Key": processKey()}, b)
}

func formOf(t *testing.T, cat *catalog.Catalog, kind string) *catalog.Form {
	t.Helper()
	for _, k := range cat.Kinds() {
		if k.Kind == kind {
			return k.DefaultCreate()
		}
	}
	t.Fatalf("the built-in catalog has no %s", kind)
	return nil
}

// migrate creates a set of files and an application of it to database db.
func (p *simProcess) migrate(t *testing.T, cat *catalog.Catalog, db, set, app string, files ...sqlFile) {
	t.Helper()
	p.create(t, cat, "SQLiteMigrationSet", set, map[string]any{"manifestDigest": p.uploadSQL(t, files...)})
	ref := func(kind, name string) map[string]any {
		f := formOf(t, cat, kind)
		return map[string]any{"apiVersion": f.Ref.APIVersion, "kind": kind, "name": name}
	}
	p.create(t, cat, "SQLiteMigrationApplication", app, map[string]any{"database": ref("SQLiteDatabase", db),
		"migrationSet": ref("SQLiteMigrationSet", set)})
}

// databases reads GET /_sim/databases as name → "ledger paths | table names".
func (p *simProcess) databases(t *testing.T) map[string]string {
	t.Helper()
	var doc struct {
		Databases []struct {
			Name, File string
			Ledger     []struct{ Path string }
			Tables     []struct{ Name string }
		}
	}
	_ = json.Unmarshal(p.must(t, 200, "GET", "/_sim/databases", nil, nil), &doc)
	out := map[string]string{}
	for _, d := range doc.Databases {
		var l, tb []string
		for _, e := range d.Ledger {
			l = append(l, filepath.Base(e.Path))
		}
		for _, x := range d.Tables {
			tb = append(tb, x.Name)
		}
		out[d.Name] = strings.Join(l, ",") + " | " + strings.Join(tb, ",")
	}
	return out
}

// `hostsim serve --db FILE` keeps each database in FILE.databases/: after a
// SIGKILL a restart finds the ledger and the tables, and a fourth file runs alone.
func TestMigrationsOutliveASIGKILLOnADatabaseFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the hostsim binary")
	}
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := hostsimBinary(t)
	db := filepath.Join(dir, "sim.db")
	p := startSim(t, bin, dir, "--db", db)
	p.create(t, cat, "SQLiteDatabase", "db", map[string]any{})
	p.migrate(t, cat, "db", "v1", "app1", migrationFiles[:3]...)
	want := "0001_users.sql,0002_posts.sql,0003_seed.sql | posts,users"
	if got := p.databases(t)["db"]; got != want {
		t.Fatalf("before the kill: %q, want %q", got, want)
	}
	if files, _ := filepath.Glob(filepath.Join(db+".databases", "*.sqlite")); len(files) != 1 {
		t.Fatalf("the database files are %v, want one", files)
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done

	p = startSim(t, bin, dir, "--db", db)
	if got := p.databases(t)["db"]; got != want {
		t.Fatalf("after the restart: %q, want %q", got, want)
	}
	p.migrate(t, cat, "db", "v2", "app2", migrationFiles...)
	if got := p.databases(t)["db"]; got != "0001_users.sql,0002_posts.sql,0003_seed.sql,0004_tags.sql | posts,tags,users" {
		t.Fatalf("after the fourth file: %q", got)
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		t.Fatal("SIGTERM: hostsim did not exit")
	}
	if _, err := os.Stat(filepath.Join(db + ".databases")); err != nil {
		t.Fatalf("the databases directory is gone after SIGTERM: %v", err)
	}
}
