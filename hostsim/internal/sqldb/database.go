package sqldb

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"modernc.org/sqlite"
)

// LedgerTable is the host's own table in every database: the migration files
// applied to it, in order, each known by (path, digest).
const LedgerTable = "takoform_migration_ledger"

const ledgerSchema = `CREATE TABLE IF NOT EXISTS ` + LedgerTable + ` (
  seq INTEGER PRIMARY KEY,
  path TEXT NOT NULL,
  digest TEXT NOT NULL,
  manifest_digest TEXT NOT NULL,
  applied_at TEXT NOT NULL)`

// Database is one SQLiteDatabase's real database. Every use runs on its one
// connection under its lock, so a migration application and a reader never
// interleave: the lock is the per-database serialization of
// docs/protocol.md#migrations.
type Database struct {
	UID  string
	Path string // "" = in memory
	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn // the one connection; in memory it also keeps the database alive
	g    guard     // the authorizer's state (guard.go)
}

func openDatabase(uid, path string) (*Database, error) {
	var dsn string
	if path == "" {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		dsn = "file:/hostsim-db-" + hex.EncodeToString(b[:]) + "?vfs=memdb"
	} else {
		dsn = "file:" + (&url.URL{Path: path}).EscapedPath() + "?_pragma=busy_timeout(5000)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open the database of SQLiteDatabase uid %s: %w", uid, err)
	}
	db.SetMaxOpenConns(1)
	d := &Database{UID: uid, Path: path, db: db}
	ctx := context.Background()
	if d.conn, err = db.Conn(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open the database of SQLiteDatabase uid %s: %w", uid, err)
	}
	err = d.conn.Raw(func(c any) error {
		a, ok := c.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("the SQLite driver offers no authorizer")
		}
		return a.RegisterAuthorizer(d.g.authorize)
	})
	if err == nil {
		_, err = d.conn.ExecContext(ctx, ledgerSchema)
	}
	if err != nil {
		d.close()
		return nil, fmt.Errorf("prepare the database of SQLiteDatabase uid %s: %w", uid, err)
	}
	return d, nil
}

func (d *Database) close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var errs []error
	if d.conn != nil {
		errs = append(errs, d.conn.Close())
		d.conn = nil
	}
	return errors.Join(append(errs, d.db.Close())...)
}

// ErrDropped is a session on a database dropped meanwhile (its resource was deleted).
var ErrDropped = errors.New("the database was dropped")

// Entry is one ledger row: the Seq-th file applied to the database.
type Entry struct {
	Seq            int64  `json:"seq"`
	Path           string `json:"path"`
	Digest         string `json:"digest"`
	ManifestDigest string `json:"manifestDigest"` // the set whose application applied it
	AppliedAt      string `json:"appliedAt"`
}

// Session is the database held exclusively (Exclusive).
type Session struct {
	d    *Database
	ctx  context.Context
	fail func(step string) error // Inject
}

// Inject has fail asked before each step the session takes on the database
// (reading the ledger; a file's begin, SQL, ledger row and commit): a non-nil
// error fails that step as the database failing would (a fault of hostsim's,
// docs/protocol.md#migrations).
func (s *Session) Inject(fail func(step string) error) { s.fail = fail }

// step asks the injected failure, if any, about the step about to run.
func (s *Session) step(step string) error {
	if s.fail == nil {
		return nil
	}
	return s.fail(step)
}

// Exclusive runs fn holding the database: no other session and no reader
// runs on it meanwhile.
func (d *Database) Exclusive(ctx context.Context, fn func(s *Session) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn == nil {
		return fmt.Errorf("the database of SQLiteDatabase uid %s: %w", d.UID, ErrDropped)
	}
	return fn(&Session{d: d, ctx: ctx})
}

// Ledger reads the ledger in order.
func (s *Session) Ledger() ([]Entry, error) {
	if err := s.step("read the ledger"); err != nil {
		return nil, err
	}
	rows, err := s.d.conn.QueryContext(s.ctx, `SELECT seq, path, digest, manifest_digest, applied_at FROM `+LedgerTable+` ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.Seq, &e.Path, &e.Digest, &e.ManifestDigest, &e.AppliedAt); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Ledger reads the ledger of the database, waiting for a running application.
func (d *Database) Ledger(ctx context.Context) ([]Entry, error) {
	var out []Entry
	err := d.Exclusive(ctx, func(s *Session) (err error) {
		out, err = s.Ledger()
		return err
	})
	return out, err
}
