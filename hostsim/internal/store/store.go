// Package store keeps every piece of hostsim protocol state in SQLite, so a
// process restarted on the same --db file continues where it stopped.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/takokit/takokit/hostsim/internal/store/mirror"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is one hostsim database. Writers are serialized by wmu so concurrent
// requests never lose an update and never see SQLITE_BUSY.
//
// The private in-memory database (Open("")) lives in SQLite's memdb VFS: no
// file is ever named, so nothing outlives the process. Its locks are the
// rollback journal's, so readers and the writer take turns on rw (a reader
// waits only while a write transaction is open); a file database runs in WAL
// mode, where readers proceed beside the writer, which takes rw only to
// commit (docs/decisions.md: hostsim storage). What requests look up by key is
// answered by the mirror (package mirror), which a commit updates under rw.
type Store struct {
	db      *sql.DB
	keep    *sql.Conn // holds a memdb database open for the Store's life
	wmu     sync.Mutex
	rw      sync.RWMutex // readers share it; a write transaction holds it (memdb) or its commit does (file)
	memory  bool
	m       *rowMirror
	path    string
	stmts   *stmtCache
	extra   []string        // tables added by Extend, emptied by Reset too
	events  func([]Pending) // receives the journal events of each committed write
	w       *writer         // the connection write transactions run on (under wmu)
	commits atomic.Int64    // SQLite write transactions committed
}

// Commits counts the SQLite write transactions committed so far (a Write that
// changed only the mirror commits none).
func (s *Store) Commits() int64 { return s.commits.Load() }

// Open opens (and creates) the database. An empty path gives a private
// in-memory database under a unique name; it is gone once Close returns.
func Open(path string) (*Store, error) {
	var dsn string
	s := &Store{path: path, m: newMirror()}
	if path == "" {
		var b [12]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		s.path = "memory:hostsim-" + hex.EncodeToString(b[:])
		// memdb copies pages into each connection's cache: keep those small
		dsn = "file:/hostsim-" + hex.EncodeToString(b[:]) + "?vfs=memdb&_pragma=busy_timeout(30000)&_pragma=cache_size(-256)"
		s.memory = true
		s.m.KeepAlone()
	} else {
		if err := CheckPath(path); err != nil {
			return nil, fmt.Errorf("open database %q: %w (an empty path keeps the database in memory)", path, err)
		}
		dsn = "file:" + (&url.URL{Path: path}).EscapedPath() +
			"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(30000)&_pragma=synchronous(NORMAL)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open database %q: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	s.db, s.stmts = db, &stmtCache{db: db, m: map[string]*sql.Stmt{}, missed: map[string]bool{}}
	if s.memory {
		if s.keep, err = db.Conn(context.Background()); err != nil {
			db.Close()
			return nil, fmt.Errorf("open the in-memory database: %w", err)
		}
	}
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, err
	}
	if err := loadMirror(s.DB(), s.m); err != nil {
		s.Close()
		return nil, fmt.Errorf("read database %q: %w", path, err)
	}
	return s, nil
}

// PathError is a database path no database can be opened at, with what to do
// (CheckPath).
type PathError struct{ Reason string }

func (e *PathError) Error() string { return e.Reason }

// CheckPath says why path cannot be a database file, and what to do, when its
// directory is missing or is a file, or path is itself a directory (SQLite answers
// each with only "unable to open database file"), or path holds a file that is not
// SQLite's ("file is not a database"): a *PathError. nil when the directory is there
// and path is a database file or nothing yet.
func CheckPath(path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return &PathError{fmt.Sprintf("the directory %s is a file; name a file in a directory", dir)}
	case os.IsNotExist(err):
		return &PathError{fmt.Sprintf("the directory %s does not exist; create it, or name a file in one that exists", dir)}
	case err != nil:
		return &PathError{fmt.Sprintf("the directory %s cannot be read: %v", dir, err)}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return &PathError{fmt.Sprintf("%s is a directory; name a file in it, such as %s", path, filepath.Join(path, "hostsim.db"))}
	}
	if !isSQLiteOrEmpty(path) {
		return &PathError{fmt.Sprintf("%s is not a SQLite database (it was left as it is); name a hostsim database file, or a path where no file is yet", path)}
	}
	return nil
}

// sqliteHeader opens every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// isSQLiteOrEmpty reports whether path is missing, empty (SQLite makes a database
// of an empty file) or starts as a SQLite database does.
func isSQLiteOrEmpty(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return true // missing, or unreadable: SQLite says which
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, _ := io.ReadFull(f, head)
	return n == 0 || string(head[:n]) == sqliteHeader
}

// Close releases the database (an in-memory one is gone afterwards).
func (s *Store) Close() error {
	s.wmu.Lock()
	if s.w != nil {
		_ = s.w.conn.Close()
		s.w = nil
	}
	s.wmu.Unlock()
	if s.keep != nil {
		_ = s.keep.Close()
	}
	return s.db.Close()
}

// Mirrored counts what the mirror holds; on the in-memory database its
// records and prepares are the only copy (PutRecord, MintPrepare).
func (s *Store) Mirrored() mirror.Counts {
	s.rw.RLock()
	defer s.rw.RUnlock()
	return s.m.Len()
}

// Path names the database: the file, or memory:<name> for a private one.
func (s *Store) Path() string { return s.path }

// OnEvents sets the sink of the journal events of committed writes (the
// journal); it must not block.
func (s *Store) OnEvents(fn func([]Pending)) { s.events = fn }

// DB runs single statements on the pool, outside any transaction. Prefer
// Read: on the in-memory database a pool statement may wait on SQLite's lock.
func (s *Store) DB() Q { return poolQ{c: s.stmts} }

// Write runs fn in one transaction, serialized with every other writer.
// fn's error rolls everything back.
func (s *Store) Write(ctx context.Context, fn func(tx Q) error) error {
	return s.WriteWith(ctx, nil, fn)
}

// WriteWith is Write with before run before each statement of the
// transaction (read: a Query or QueryRow; else an Exec): an error it returns
// is that statement's error, as SQLite's would be (the statement does nothing,
// the transaction stays open and fn decides; a QueryRow's row scans as
// before's error). The store.fail and store.read-fail faults fail a request's
// statement this way.
// A lookup of a resource or of pins the mirror answers runs no statement but
// asks before as a read all the same (lookupView).
func (s *Store) WriteWith(ctx context.Context, before func(read bool) error, fn func(tx Q) error) error {
	err := s.write(ctx, before, fn)
	s.fill()
	return err
}

func (s *Store) write(ctx context.Context, before func(read bool) error, fn func(tx Q) error) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.memory {
		s.rw.Lock()
		defer s.rw.Unlock()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.w == nil {
		c, err := s.db.Conn(context.Background())
		if err != nil {
			return err
		}
		s.w = &writer{conn: c, stmts: map[string]*sql.Stmt{}, m: s.m, ov: mirror.NewOverlay[Resource, Pin](), memory: s.memory}
	}
	w := s.w
	w.events, w.after, w.began, w.err, w.before = nil, nil, false, nil, before
	w.ov.Clear()
	err := s.run(w, fn)
	if err == nil {
		err = w.err // a BEGIN that failed under a statement whose error fn dropped
	}
	if err != nil {
		if w.began && w.err == nil {
			_ = w.exec("ROLLBACK")
		}
		s.lasting(w)
		return err
	}
	if !s.memory {
		s.rw.Lock() // no reader looks while SQLite and the mirror move on
		defer s.rw.Unlock()
	}
	if w.began {
		if err := w.exec("COMMIT"); err != nil {
			_ = w.exec("ROLLBACK")
			s.lasting(w)
			return err
		}
		s.commits.Add(1)
	}
	s.m.Apply(w.ov)
	if len(w.events) > 0 && s.events != nil {
		s.events(w.events) // in commit order: the journal is fed under the writer lock
	}
	for _, fn := range w.after {
		fn()
	}
	return nil
}

// run runs fn on w. A panic in fn (a hostsim bug the server recovers from)
// rolls the write back as an error would, hands over its lasting events and
// goes on panicking: a transaction left open on the writer's connection would
// fail every later write ("cannot start a transaction within a transaction").
func (s *Store) run(w *writer, fn func(tx Q) error) error {
	defer func() {
		if r := recover(); r != nil {
			if w.began && w.err == nil {
				_ = w.exec("ROLLBACK")
			}
			s.lasting(w)
			panic(r)
		}
	}()
	return fn(writeQ{w})
}

// fill prepares the statements transactions met for the first time, while
// no write transaction holds the database.
func (s *Store) fill() {
	s.rw.RLock()
	defer s.rw.RUnlock()
	s.stmts.fill()
}

// Read runs fn in a read transaction (a consistent snapshot).
func (s *Store) Read(ctx context.Context, fn func(tx Q) error) error {
	err := s.read(ctx, fn)
	s.fill()
	return err
}

func (s *Store) read(ctx context.Context, fn func(tx Q) error) error {
	s.rw.RLock()
	defer s.rw.RUnlock()
	if s.memory {
		// No write transaction runs while readers hold rw, so the database
		// cannot move under fn: its statements need no transaction of their own.
		return fn(poolQ{s.stmts, s.m})
	}
	// A commit waits for rw, so the mirror and the snapshot agree.
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(txQ{tx, s.stmts, s.m})
}

// ResetTables empties every table of protocol state (POST /_sim/reset) in
// q; the faults table is the Armory's to reset.
func (s *Store) ResetTables(q Q) error {
	for _, t := range append(append([]string(nil), resetTables...), s.extra...) {
		if _, err := q.Exec("DELETE FROM " + t); err != nil {
			return err
		}
	}
	if v, ok := viewOf(q); ok && v.Writing() {
		v.Reset()
	}
	return nil
}
