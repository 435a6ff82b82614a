package store

import (
	"database/sql"
	"sync"
)

// stmtCache prepares each query once per Store; database/sql then keeps one
// prepared statement per connection, so SQLite parses each query text once per
// connection instead of on every call (parsing dominated the profile).
type stmtCache struct {
	db *sql.DB
	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

func (c *stmtCache) get(query string) (*sql.Stmt, error) {
	c.mu.RLock()
	s := c.m[query]
	c.mu.RUnlock()
	if s != nil {
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

// txQ runs cached statements inside one transaction.
type txQ struct {
	tx *sql.Tx
	c  *stmtCache
}

func (q txQ) Exec(query string, args ...any) (sql.Result, error) {
	s, err := q.c.get(query)
	if err != nil {
		return nil, err
	}
	return q.tx.Stmt(s).Exec(args...)
}

func (q txQ) Query(query string, args ...any) (*sql.Rows, error) {
	s, err := q.c.get(query)
	if err != nil {
		return nil, err
	}
	return q.tx.Stmt(s).Query(args...)
}

func (q txQ) QueryRow(query string, args ...any) *sql.Row {
	s, err := q.c.get(query)
	if err != nil {
		return q.tx.QueryRow(query, args...)
	}
	return q.tx.Stmt(s).QueryRow(args...)
}

// poolQ runs cached statements on the pool (single-statement reads).
type poolQ struct{ c *stmtCache }

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
