package related

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// failQ is a store whose one chosen statement fails: the nth (from 1) whose
// text contains stmt and one of whose arguments is arg ("" matches any). Every
// other statement runs, so a failure deep in a scan (after queries that
// worked) is reachable. It is no Store Q, so every lookup runs its query.
type failQ struct {
	q         store.Q
	stmt, arg string
	nth       int
	seen      int
	fired     bool
}

var errStoreFailed = errors.New("the store failed on purpose")

func (f *failQ) hit(query string, args []any) bool {
	if !strings.Contains(query, f.stmt) || (f.arg != "" && !slices.ContainsFunc(args, func(a any) bool { return fmt.Sprint(a) == f.arg })) {
		return false
	}
	f.seen++
	if f.seen == max(f.nth, 1) {
		f.fired = true
		return true
	}
	return false
}

func (f *failQ) Exec(query string, args ...any) (sql.Result, error) {
	if f.hit(query, args) {
		return nil, errStoreFailed
	}
	return f.q.Exec(query, args...)
}

func (f *failQ) Query(query string, args ...any) (*sql.Rows, error) {
	if f.hit(query, args) {
		return nil, errStoreFailed
	}
	return f.q.Query(query, args...)
}

// QueryRow cannot build a failed *sql.Row: it asks the store for a table
// that does not exist, whose Scan fails naming it.
func (f *failQ) QueryRow(query string, args ...any) *sql.Row {
	if f.hit(query, args) {
		return f.q.QueryRow(`SELECT * FROM ` + goneTable)
	}
	return f.q.QueryRow(query, args...)
}

const goneTable = "store_failed_on_purpose"

// The statements the related checks run, as failQ.stmt.
const (
	sqlPinsOf       = "WHERE source_uid=? ORDER BY pointer"
	sqlPinsTo       = "WHERE target_uid=? AND source_uid<>?"
	sqlByUID        = "FROM resources WHERE uid=?"
	sqlByName       = "WHERE tenant=? AND space=? AND api_version=? AND kind=? AND name=?"
	sqlListKind     = "WHERE tenant=? AND kind=? AND space=?"
	sqlPendingDel   = "FROM operations WHERE action='delete'"
	sqlUpdateResRow = "UPDATE resources SET"
)

var errRollback = errors.New("roll back what the failing store saw")

// failing runs fn on a failQ over a write transaction that is then rolled
// back, and returns the failQ to ask whether the failure fired.
func (w *world) failing(stmt, arg string, nth int, fn func(q store.Q)) *failQ {
	w.t.Helper()
	f := &failQ{stmt: stmt, arg: arg, nth: nth}
	err := w.st.Write(context.Background(), func(q store.Q) error {
		f.q = q
		fn(f)
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		w.t.Fatalf("the failing-store transaction: %v", err)
	}
	return f
}

// storeFailed reports whether err is the failure failQ injected.
func storeFailed(err error) bool {
	return err != nil && (errors.Is(err, errStoreFailed) || strings.Contains(err.Error(), goneTable))
}
