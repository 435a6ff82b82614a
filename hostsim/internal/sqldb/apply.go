package sqldb

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// File is one migration file to apply: its manifest entry and its bytes.
type File struct {
	Path, Digest string
	SQL          []byte
}

// FileError is a migration file that did not apply. Its SQL and its ledger row
// were rolled back together; what the database held before it is unchanged.
type FileError struct {
	Denied  string        // what the host refused in the file ("" = SQLite's own error)
	Timeout time.Duration // > 0: the file was interrupted after running this long
	Err     error         // SQLite's error
}

func (e *FileError) Error() string {
	switch {
	case e.Denied != "":
		return "the host refused a statement: " + e.Denied
	case e.Timeout > 0:
		return fmt.Sprintf("it ran longer than the host's %s limit for one migration file and was interrupted", e.Timeout)
	}
	return e.Err.Error()
}

func (e *FileError) Unwrap() error { return e.Err }

// Apply runs f's SQL and inserts its ledger row e in one SQLite transaction:
// both commit, or neither does (a *FileError says why the file failed; any
// other error is the host's). The file may run at most timeout.
func (s *Session) Apply(f File, e Entry, timeout time.Duration) error {
	if !utf8.Valid(f.SQL) {
		return &FileError{Err: errors.New("the file is not UTF-8 text")}
	}
	if err := s.exec(fmt.Sprintf("begin the transaction of migration file %q", f.Path), "BEGIN IMMEDIATE"); err != nil {
		return err
	}
	if err := s.step(fmt.Sprintf("run migration file %q", f.Path)); err != nil {
		s.rollback()
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	s.d.g.enter()
	_, err := s.d.conn.ExecContext(ctx, string(f.SQL))
	denied := s.d.g.leave()
	timedOut := ctx.Err() != nil
	cancel()
	if err != nil {
		s.rollback()
		if storageFailed(err) { // a refused statement fails with SQLITE_AUTH, never a storage code
			return fmt.Errorf("run migration file %q: the database's storage failed: %w", f.Path, err)
		}
		fe := &FileError{Denied: denied, Err: err}
		if timedOut && denied == "" {
			fe.Timeout = timeout
		}
		return fe
	}
	if err := s.exec(fmt.Sprintf("record migration file %q in the ledger", f.Path),
		`INSERT INTO `+LedgerTable+` (seq, path, digest, manifest_digest, applied_at) VALUES (?,?,?,?,?)`,
		e.Seq, e.Path, e.Digest, e.ManifestDigest, e.AppliedAt); err != nil {
		s.rollback()
		return err
	}
	if err := s.exec(fmt.Sprintf("commit migration file %q", f.Path), "COMMIT"); err != nil {
		s.rollback()
		return err
	}
	return nil
}

// exec runs the one statement of step, the injected failure asked first; a
// statement's error names the step.
func (s *Session) exec(step, query string, args ...any) error {
	if err := s.step(step); err != nil {
		return err
	}
	if _, err := s.d.conn.ExecContext(s.ctx, query, args...); err != nil {
		return fmt.Errorf("%s: %w", step, err)
	}
	return nil
}

// storageFailed says whether a file's SQL failed because the database's
// storage did (out of memory or disk, an I/O error, a corrupt, unopenable,
// read-only or busy file) rather than because of the file: that is the
// host's failure, which the same file applied again may pass, not the file's.
func storageFailed(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff { // the primary result code
	case sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_BUSY:
		return true
	}
	return false
}

// rollback ends the open transaction; SQLite may have ended it already (an
// interrupted statement rolls its transaction back), which is no error here.
func (s *Session) rollback() {
	_, _ = s.d.conn.ExecContext(context.Background(), "ROLLBACK")
}
