package sqldb

import (
	"context"
	"strings"
)

// Table is one table or view of a database as the admin views show it: its
// shape and size, never its rows.
type Table struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"` // "table" or "view"
	Columns []Column `json:"columns"`
	Rows    *int64   `json:"rows,omitempty"` // tables only
}

// Column is one column of a table.
type Column struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	NotNull    bool   `json:"notNull"`
	PrimaryKey bool   `json:"primaryKey"`
}

// MaxTables bounds what Tables lists.
const MaxTables = 200

// Tables lists the database's tables and views by name (at most MaxTables),
// without SQLite's internal tables and the host's ledger.
func (d *Database) Tables(ctx context.Context) ([]Table, error) {
	var out []Table
	err := d.Exclusive(ctx, func(s *Session) error {
		rows, err := s.d.conn.QueryContext(ctx, `SELECT name, type FROM sqlite_schema WHERE type IN ('table','view')
			AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> ? ORDER BY name LIMIT ?`, LedgerTable, MaxTables)
		if err != nil {
			return err
		}
		out = []Table{}
		for rows.Next() {
			var t Table
			if err := rows.Scan(&t.Name, &t.Type); err != nil {
				rows.Close()
				return err
			}
			out = append(out, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i := range out {
			if err := s.describe(&out[i]); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// describe reads a table's columns and, for a table, its row count.
func (s *Session) describe(t *Table) error {
	quoted := `"` + strings.ReplaceAll(t.Name, `"`, `""`) + `"`
	rows, err := s.d.conn.QueryContext(s.ctx, `SELECT name, type, "notnull", pk FROM pragma_table_info(?)`, t.Name)
	if err != nil {
		return err
	}
	t.Columns = []Column{}
	for rows.Next() {
		var c Column
		var pk int
		if err := rows.Scan(&c.Name, &c.Type, &c.NotNull, &pk); err != nil {
			rows.Close()
			return err
		}
		c.PrimaryKey = pk > 0
		t.Columns = append(t.Columns, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil || t.Type != "table" {
		return err
	}
	var n int64
	if err := s.d.conn.QueryRowContext(s.ctx, `SELECT count(*) FROM `+quoted).Scan(&n); err != nil {
		return err
	}
	t.Rows = &n
	return nil
}
