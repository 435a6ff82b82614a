package sqldb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// run applies files in order after reading the ledger, as an application does,
// with fail injected; it returns the steps asked and the first error.
func run(t *testing.T, d *Database, fail func(step string) error, files ...File) (steps []string, err error) {
	t.Helper()
	xerr := d.Exclusive(ctx, func(s *Session) error {
		s.Inject(func(step string) error {
			steps = append(steps, step)
			if fail == nil {
				return nil
			}
			return fail(step)
		})
		l, err := s.Ledger()
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := s.Apply(f, entry(int64(len(l))+1, f.Path), 2*time.Second); err != nil {
				return err
			}
			l = append(l, Entry{})
		}
		return nil
	})
	return steps, xerr
}

// A step of the session that fails (the database's storage failing) fails
// alone: the file in flight rolls back with its ledger row, the files before
// it stay, the error is the step's (not a *FileError: the file is not at
// fault), and the same files applied again resume after the ledger.
func TestAFailedStepLeavesTheFileInFlightOut(t *testing.T) {
	files := []File{{Path: "0001.sql", SQL: []byte("CREATE TABLE a (x);")}, {Path: "0002.sql", SQL: []byte("CREATE TABLE b (y);")}}
	want := []string{"read the ledger",
		`begin the transaction of migration file "0001.sql"`, `run migration file "0001.sql"`,
		`record migration file "0001.sql" in the ledger`, `commit migration file "0001.sql"`,
		`begin the transaction of migration file "0002.sql"`, `run migration file "0002.sql"`,
		`record migration file "0002.sql" in the ledger`, `commit migration file "0002.sql"`}
	r := NewRegistry("")
	defer r.Close()
	for n := 1; n <= len(want); n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			d, err := r.Open(fmt.Sprintf("u-%d", n))
			if err != nil {
				t.Fatal(err)
			}
			disk := errors.New("disk gone")
			steps, err := run(t, d, func(step string) error {
				if step == want[n-1] {
					return disk
				}
				return nil
			}, files...)
			var fe *FileError
			if !errors.Is(err, disk) || errors.As(err, &fe) {
				t.Fatalf("step %d (%s) failed, and the run answered %v", n, want[n-1], err)
			}
			if got := strings.Join(steps, "; "); got != strings.Join(want[:n], "; ") {
				t.Fatalf("the steps asked up to the failure:\n%s\nwant\n%s", got, strings.Join(want[:n], "; "))
			}
			applied := (n - 2) / 4 // the whole files before the one in flight (step 1 reads the ledger)
			if got, want := ledgerPaths(t, d), strings.Join([]string{"0001.sql", "0002.sql"}[:applied], ","); got != want {
				t.Fatalf("after step %d failed the ledger is %q, want %q", n, got, want)
			}
			if got, want := tableNames(t, d), strings.Join([]string{"a", "b"}[:applied], ","); got != want {
				t.Fatalf("after step %d failed the tables are %q, want %q", n, got, want)
			}
			if _, err := run(t, d, nil, files[applied:]...); err != nil {
				t.Fatalf("the files applied again after step %d failed: %v", n, err)
			}
			if got := ledgerPaths(t, d) + " " + tableNames(t, d); got != "0001.sql,0002.sql a,b" {
				t.Fatalf("after the resume: %s", got)
			}
		})
	}
	steps, err := run(t, mustOpen(t, r, "u-all"), nil, files...)
	if err != nil || len(steps) != len(want) {
		t.Fatalf("an unfailed run asked %d steps (%v), want %d", len(steps), err, len(want))
	}
}

// A file whose SQL fails because the database's storage does (here: full) is
// the host's failure, not the file's: it rolls back whole, and its error is
// SQLite's, not a *FileError telling the author to fix the file.
func TestAFileWhoseStorageFailsIsNotTheFilesFailure(t *testing.T) {
	r := NewRegistry("")
	defer r.Close()
	d := mustOpen(t, r, "u-1")
	if err := apply(t, d, "0001.sql", "CREATE TABLE a (x);"); err != nil {
		t.Fatal(err)
	}
	if err := d.Exclusive(ctx, func(s *Session) error {
		var pages int
		if err := s.d.conn.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
			return err
		}
		_, err := s.d.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA max_page_count = %d", pages+2))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	err := apply(t, d, "big.sql", "CREATE TABLE big (x); INSERT INTO big VALUES (randomblob(1000000));")
	var fe *FileError
	var se *sqlite.Error
	if err == nil || errors.As(err, &fe) || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_FULL ||
		!strings.Contains(err.Error(), `run migration file "big.sql": the database's storage failed`) {
		t.Fatalf("a file that filled the database answered %v", err)
	}
	if got := ledgerPaths(t, d) + " " + tableNames(t, d); got != "0001.sql a" {
		t.Fatalf("the file that filled the database left: %s", got)
	}
	// the same limit does not make an ordinary SQL error the host's
	if err := apply(t, d, "bad.sql", "INSERT INTO nowhere VALUES (1);"); !errors.As(err, &fe) {
		t.Fatalf("a file naming no table answered %v", err)
	}
}

// A database file removed while the host runs is the host's storage failing:
// SQLite answers a write with an extended code (SQLITE_READONLY_DBMOVED), whose
// primary code is what says so.
func TestARemovedDatabaseFileIsTheHostsFailure(t *testing.T) {
	r := NewRegistry(filepath.Join(t.TempDir(), "host.db"))
	defer r.Close()
	d := mustOpen(t, r, "u-1")
	if err := apply(t, d, "0001.sql", "CREATE TABLE a (x);"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(d.Path); err != nil {
		t.Fatal(err)
	}
	err := apply(t, d, "0002.sql", "CREATE TABLE b (x);")
	var fe *FileError
	var se *sqlite.Error
	if err == nil || errors.As(err, &fe) || !errors.As(err, &se) || se.Code() == se.Code()&0xff || se.Code()&0xff != sqlite3.SQLITE_READONLY ||
		!strings.Contains(err.Error(), `run migration file "0002.sql": the database's storage failed`) {
		t.Fatalf("a file applied after its database's file was removed answered %v; want the storage failing, by an extended READONLY code", err)
	}
}

func mustOpen(t *testing.T, r *Registry, uid string) *Database {
	t.Helper()
	d, err := r.Open(uid)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
