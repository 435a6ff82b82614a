// Package store keeps every piece of hostsim protocol state in SQLite, so a
// process restarted on the same --db file continues where it stopped.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is one hostsim database. Writers are serialized by wmu so concurrent
// requests never lose an update and never see SQLITE_BUSY; readers use the
// pool directly and do not wait for the writer lock.
type Store struct {
	db     *sql.DB
	wmu    sync.Mutex
	memory bool
	path   string
	stmts  *stmtCache
	extra  []string // tables added by Extend, emptied by Reset too
}

// Open opens (and creates) the database. An empty path gives a private
// database under a unique name on tmpfs (/dev/shm when present), removed again
// by Close: SQLite's memdb VFS blocks every reader while a writer holds its
// lock, and WAL on tmpfs lets reads proceed beside the writer at memory speed
// (docs/decisions.md: hostsim private database).
func Open(path string) (*Store, error) {
	memory := path == ""
	sync := "NORMAL"
	if memory {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		dir := os.TempDir()
		if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
			dir = "/dev/shm"
		}
		path = filepath.Join(dir, "hostsim-"+hex.EncodeToString(b[:])+".db")
		sync = "OFF"
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(30000)&_pragma=synchronous(" + sync + ")"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	s := &Store{db: db, memory: memory, path: path, stmts: &stmtCache{db: db, m: map[string]*sql.Stmt{}}}
	if _, err := db.Exec(schema); err != nil {
		s.Close()
		return nil, fmt.Errorf("initialize database %q: %w", path, err)
	}
	return s, nil
}

// Close releases the database (an in-memory one is gone afterwards).
func (s *Store) Close() error {
	err := s.db.Close()
	if s.memory {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(s.path + suffix)
		}
	}
	return err
}

// DB runs single statements on the pool (reads outside a transaction).
func (s *Store) DB() Q { return poolQ{s.stmts} }

// Write runs fn in one transaction, serialized with every other writer.
// fn's error rolls everything back.
func (s *Store) Write(ctx context.Context, fn func(tx Q) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(txQ{tx, s.stmts}); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Read runs fn in a read transaction (a consistent snapshot).
func (s *Store) Read(ctx context.Context, fn func(tx Q) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(txQ{tx, s.stmts})
}

// Reset empties every table (hostsim.md §7 reset) and disarms run-time faults;
// the caller re-arms the profile's faults.
func (s *Store) Reset(ctx context.Context) error {
	return s.Write(ctx, func(tx Q) error {
		for _, t := range append(append([]string(nil), resetTables...), s.extra...) {
			if _, err := tx.Exec("DELETE FROM " + t); err != nil {
				return err
			}
		}
		_, err := tx.Exec("DELETE FROM faults WHERE source <> 'profile'")
		return err
	})
}
