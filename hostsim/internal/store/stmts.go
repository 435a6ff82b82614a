package store

import (
	"database/sql"
	"sync"
)

// stmtCache prepares each query once per Store; database/sql then keeps one
// prepared statement per connection, so SQLite parses each query text once per
// connection instead of on every call (parsing dominated the profile).
//
// Inside a transaction a query seen for the first time is prepared on the
// transaction's own connection: preparing on another connection could wait on
// the lock the transaction holds. It is added to the cache once the
// transaction is over (fill).
type stmtCache struct {
	db     *sql.DB
	mu     sync.RWMutex
	m      map[string]*sql.Stmt
	missed map[string]bool
}

func (c *stmtCache) cached(query string) *sql.Stmt {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[query]
}

// get returns the cached statement, preparing it on the pool when absent.
func (c *stmtCache) get(query string) (*sql.Stmt, error) {
	if s := c.cached(query); s != nil {
		return s, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.m[query]; s != nil {
		return s, nil
	}
	s, err := c.db.Prepare(query)
	if err != nil {
		return nil, err
	}
	c.m[query] = s
	return s, nil
}

// inTx returns query's statement for tx: the cached one, or one prepared on
// the transaction's connection (remembered for fill).
func (c *stmtCache) inTx(tx *sql.Tx, query string) (*sql.Stmt, error) {
	if s := c.cached(query); s != nil {
		return tx.Stmt(s), nil
	}
	c.mu.Lock()
	c.missed[query] = true
	c.mu.Unlock()
	return tx.Prepare(query)
}

// fill prepares the queries transactions missed; call it outside any transaction.
func (c *stmtCache) fill() {
	c.mu.RLock()
	n := len(c.missed)
	c.mu.RUnlock()
	if n == 0 {
		return
	}
	c.mu.Lock()
	missed := c.missed
	c.missed = map[string]bool{}
	c.mu.Unlock()
	for q := range missed {
		_, _ = c.get(q)
	}
}

// txQ runs cached statements inside one read transaction (a file
// database); m answers the lookups the mirror holds.
type txQ struct {
	tx *sql.Tx
	c  *stmtCache
	m  *rowMirror
}

func (q txQ) Exec(query string, args ...any) (sql.Result, error) {
	s, err := q.c.inTx(q.tx, query)
	if err != nil {
		return nil, err
	}
	return s.Exec(args...)
}

func (q txQ) Query(query string, args ...any) (*sql.Rows, error) {
	s, err := q.c.inTx(q.tx, query)
	if err != nil {
		return nil, err
	}
	return s.Query(args...)
}

func (q txQ) QueryRow(query string, args ...any) *sql.Row {
	s, err := q.c.inTx(q.tx, query)
	if err != nil {
		return q.tx.QueryRow(query, args...)
	}
	return s.QueryRow(args...)
}

// poolQ runs cached statements on the pool (single-statement reads); m,
// when set, answers the lookups the mirror holds (Store.Read on the
// in-memory database).
type poolQ struct {
	c *stmtCache
	m *rowMirror
}

func (q poolQ) Exec(query string, args ...any) (sql.Result, error) {
	s, err := q.c.get(query)
	if err != nil {
		return nil, err
	}
	return s.Exec(args...)
}

func (q poolQ) Query(query string, args ...any) (*sql.Rows, error) {
	s, err := q.c.get(query)
	if err != nil {
		return nil, err
	}
	return s.Query(args...)
}

func (q poolQ) QueryRow(query string, args ...any) *sql.Row {
	s, err := q.c.get(query)
	if err != nil {
		return q.c.db.QueryRow(query, args...)
	}
	return s.QueryRow(args...)
}
