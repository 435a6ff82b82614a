package store

import (
	"context"
	"database/sql"
)

// writer is the one connection every write transaction runs on, with the
// statements prepared on it. Writers are serialized (Store.wmu), so a write
// transaction is BEGIN IMMEDIATE, the statements, COMMIT on this connection:
// no pool lookup and no per-statement transaction wrapper. BEGIN waits for the
// first statement: a write that changes only the mirror (a prepare mint on the
// in-memory database, MintPrepare) opens no SQLite transaction at all.
type writer struct {
	conn   *sql.Conn
	stmts  map[string]*sql.Stmt
	events []Pending // journal events of the open transaction
	after  []func()  // run once the open transaction committed (AfterCommit)
	m      *rowMirror
	ov     *overlay // the open transaction's changes to the mirror
	memory bool     // the in-memory database: what only the mirror reads stays there
	began  bool     // BEGIN IMMEDIATE was sent for the current write
	err    error    // and failed
	// before, when set for the current write, runs before each of its
	// statements (read: a Query or QueryRow, else an Exec); its error is that
	// statement's, and the transaction stays open (the store.fail and
	// store.read-fail faults: WriteWith)
	before func(read bool) error
}

// begin opens the write's SQLite transaction before its first statement.
func (w *writer) begin() error {
	if !w.began {
		w.began = true
		w.err = w.exec("BEGIN IMMEDIATE")
	}
	return w.err
}

func (w *writer) stmt(query string) (*sql.Stmt, error) {
	if s := w.stmts[query]; s != nil {
		return s, nil
	}
	s, err := w.conn.PrepareContext(context.Background(), query)
	if err != nil {
		return nil, err
	}
	w.stmts[query] = s
	return s, nil
}

func (w *writer) exec(query string) error {
	s, err := w.stmt(query)
	if err == nil {
		_, err = s.Exec()
	}
	return err
}

// writeQ runs statements inside the writer's open transaction.
type writeQ struct{ w *writer }

func (q writeQ) Exec(query string, args ...any) (sql.Result, error) {
	if err := q.w.begin(); err != nil {
		return nil, err
	}
	if q.w.before != nil {
		if err := q.w.before(false); err != nil {
			return nil, err
		}
	}
	s, err := q.w.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.Exec(args...)
}

func (q writeQ) Query(query string, args ...any) (*sql.Rows, error) {
	if err := q.w.begin(); err != nil {
		return nil, err
	}
	if q.w.before != nil {
		if err := q.w.before(true); err != nil {
			return nil, err
		}
	}
	s, err := q.w.stmt(query)
	if err != nil {
		return nil, err
	}
	return s.Query(args...)
}

func (q writeQ) QueryRow(query string, args ...any) *sql.Row {
	if q.w.begin() != nil { // a Row that runs nothing and scans as an error; write returns w.err
		return q.w.failedRow(context.Canceled, query, args)
	}
	if q.w.before != nil {
		if err := q.w.before(true); err != nil {
			return q.w.failedRow(err, query, args)
		}
	}
	s, err := q.w.stmt(query)
	if err != nil {
		return q.w.conn.QueryRowContext(context.Background(), query, args...)
	}
	return s.QueryRow(args...)
}

// failedRow is a Row that runs nothing and scans as err: database/sql gives
// the Scan of a Row whose context is done that context's Err.
func (w *writer) failedRow(err error, query string, args []any) *sql.Row {
	return w.conn.QueryRowContext(failedCtx{doneCtx, err}, query, args...)
}

// failedCtx is a done context whose Err is err.
type failedCtx struct {
	context.Context
	err error
}

func (c failedCtx) Err() error { return c.err }

var doneCtx = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()
