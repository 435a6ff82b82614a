package hostsim_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

// The SQLite migration kinds, named once for the tests of docs/protocol.md#migrations.
const (
	kSet = "SQLiteMigrationSet"
	kApp = "SQLiteMigrationApplication"
)

// sqlFile is one migration file: its manifest path and its SQL.
type sqlFile struct{ path, sql string }

// migrationManifest is the upload-start body of a MigrationBundle of files
// (mediaType: every file's media type, normally application/sql).
func migrationManifest(mediaType string, files ...sqlFile) []byte {
	var list []any
	for _, f := range files {
		list = append(list, map[string]any{"path": f.path, "mediaType": mediaType, "size": len(f.sql),
			"digest": wire.RawDigest([]byte(f.sql))})
	}
	b, _ := json.Marshal(map[string]any{"manifest": map[string]any{"apiVersion": "artifacts.takoform.com/v1alpha1",
		"kind": "MigrationBundle", "files": list}})
	return b
}

// uploadMigrations runs the artifact flow for a MigrationBundle and returns its digest.
func (c *client) uploadMigrations(files ...sqlFile) string {
	c.t.Helper()
	st := c.start(migrationManifest("application/sql", files...)).status(201).json()
	id := fmt.Sprint(st["uploadId"])
	missing := fmt.Sprint(st["missingBlobs"])
	for _, f := range files {
		if d := wire.RawDigest([]byte(f.sql)); strings.Contains(missing, d) {
			c.putBlob(id, d, []byte(f.sql)).status(201)
			missing = strings.ReplaceAll(missing, d, "")
		}
	}
	out := c.commit(id, newKey()).json()
	return fmt.Sprint(out["manifestDigest"])
}

// migrationWorld is a host with one space to build databases, sets and applications in.
type migrationWorld struct {
	*world
	sim *hostsimtest.Sim
}

func newMigrationWorld(t *testing.T, cfg hostsim.Config) *migrationWorld {
	t.Helper()
	cfg.Catalog = testCatalog(t)
	return migrationWorldOn(t, hostsimtest.Start(t, cfg))
}

// migrationWorldOn is the world of a host already started on testCatalog.
func migrationWorldOn(t *testing.T, sim *hostsimtest.Sim) *migrationWorld {
	return &migrationWorld{world: &world{t: t, c: newClient(t, sim.URL, "sim-primary"), cat: testCatalog(t), space: "prod"}, sim: sim}
}

// set uploads files and creates the set name committing to them.
func (w *migrationWorld) set(name string, files ...sqlFile) {
	w.t.Helper()
	w.create(kSet, name, map[string]any{"manifestDigest": w.c.uploadMigrations(files...)}).status(201)
}

// appSpec is an application of set to db.
func (w *migrationWorld) appSpec(db, set string) map[string]any {
	return map[string]any{"database": w.ref(kSQLite, db), "migrationSet": w.ref(kSet, set)}
}

// apply creates the application name of set to db.
func (w *migrationWorld) apply(name, db, set string) *reply {
	w.t.Helper()
	return w.create(kApp, name, w.appSpec(db, set))
}

// uid is the uid of a stored resource.
func (w *migrationWorld) uid(kind, name string) string {
	w.t.Helper()
	uid, _, _ := meta(w.t, w.read(kind, name).status(200))
	return uid
}

// dbView is one database of GET /_sim/databases.
type dbView struct {
	Name, UID, File string
	Created         bool
	Ledger          []struct {
		Seq                          int64
		Path, Digest, ManifestDigest string
	}
	Tables []struct {
		Name, Type string
		Rows       *int64
		Columns    []struct{ Name, Type string }
	}
}

// database reads the admin view of the database of SQLiteDatabase name.
func (w *migrationWorld) database(name string) dbView {
	w.t.Helper()
	uid := w.uid(kSQLite, name)
	raw, err := w.sim.Admin.Databases()
	if err != nil {
		w.t.Fatal(err)
	}
	var doc struct{ Databases []dbView }
	if err := json.Unmarshal(raw, &doc); err != nil {
		w.t.Fatal(err)
	}
	for _, d := range doc.Databases {
		if d.UID == uid {
			return d
		}
	}
	w.t.Fatalf("GET /_sim/databases lists no database of %s (uid %s): %s", name, uid, raw)
	return dbView{}
}

// ledger is the database's ledger as "path,path,…".
func (d dbView) ledger() string {
	var out []string
	for _, e := range d.Ledger {
		out = append(out, e.Path)
	}
	return strings.Join(out, ",")
}

// tables is the database's tables as "name:rows,…".
func (d dbView) tables() string {
	var out []string
	for _, t := range d.Tables {
		s := t.Name
		if t.Rows != nil {
			s += fmt.Sprintf(":%d", *t.Rows)
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// migrationEvents counts the journal's "migration" events per file path.
func (w *migrationWorld) migrationEvents() map[string]int {
	w.t.Helper()
	raw, err := w.sim.Admin.Events(0)
	if err != nil {
		w.t.Fatal(err)
	}
	var doc struct {
		Events []struct {
			Type string
			Data struct{ File string }
		}
	}
	_ = json.Unmarshal(raw, &doc)
	out := map[string]int{}
	for _, e := range doc.Events {
		if e.Type == "migration" {
			out[e.Data.File]++
		}
	}
	return out
}

// mutations reads the mutation counter.
func (w *migrationWorld) mutations() int64 {
	w.t.Helper()
	c, err := w.sim.Admin.Counters()
	if err != nil {
		w.t.Fatal(err)
	}
	return c.Mutations
}

// The files of the tests: each CREATE TABLE fails when it runs twice, so a
// file that ran again would be seen.
var (
	m1    = sqlFile{"migrations/0001_users.sql", "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\nINSERT INTO users (name) VALUES ('ada-lovelace-row-value');"}
	m2    = sqlFile{"migrations/0002_posts.sql", "-- posts belong to users\nCREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users(id), body TEXT);"}
	m3    = sqlFile{"migrations/0003_index.sql", "CREATE INDEX posts_by_user ON posts(user_id);\nINSERT INTO posts (user_id, body) VALUES (1, 'hello');"}
	m4    = sqlFile{"migrations/0004_tags.sql", "CREATE TABLE tags (name TEXT PRIMARY KEY);"}
	m2bad = sqlFile{m2.path, "CREATE TABLE posts (id INTEGER PRIMARY KEY);\nINSERT INTO postz (id) VALUES (1);"}
	m2new = sqlFile{m2.path, "CREATE TABLE posts (id INTEGER PRIMARY KEY, body TEXT);"}
)
