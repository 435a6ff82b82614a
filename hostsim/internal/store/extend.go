package store

import "fmt"

// schemaVersion is written to the database's user_version; a --db file of
// another version is refused instead of being misread, except version 4,
// which migrates (records gained their dictionary, digests became bytes).
const schemaVersion = 5

// migrate creates the schema in a new database and checks an existing one.
func (s *Store) migrate() error {
	// One transaction: a migration that fails (or a process that dies) part way
	// leaves the file as it was, so the next start can try again; step by step, a
	// failed UPDATE after its ALTER left a column the next start failed to add
	// (docs/decisions.md, "A migration is one transaction").
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("read database %q: %w", s.path, err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("read database %q: %w", s.path, err)
	}
	var tables int
	if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table'`).Scan(&tables); err != nil {
		return fmt.Errorf("read database %q: %w", s.path, err)
	}
	if tables > 0 && v == 4 {
		for _, m := range []string{`ALTER TABLE idempotency ADD COLUMN dict INTEGER NOT NULL DEFAULT 0`,
			`UPDATE prepares SET digest = unhex(substr(digest, 8)) WHERE digest GLOB 'sha256:*' AND length(digest) = 71`} {
			if _, err := tx.Exec(m); err != nil {
				return fmt.Errorf("migrate database %q to schema %d: %w; the file is left as it was", s.path, schemaVersion, err)
			}
		}
		v = schemaVersion
	}
	if tables > 0 && v != schemaVersion {
		return fmt.Errorf("database %q was written by another hostsim version (schema %d, this hostsim writes %d); use a new --db file", s.path, v, schemaVersion)
	}
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("initialize database %q: %w", s.path, err)
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return fmt.Errorf("initialize database %q: %w", s.path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("initialize database %q: %w", s.path, err)
	}
	return nil
}

// Extend creates the tables of a package that keeps its own state in this
// database (internal/transition: the transition ledger and the simulated
// backend) and has ResetTables empty them too.
func (s *Store) Extend(ddl string, tables ...string) error {
	if _, err := s.db.Exec(ddl); err != nil {
		return fmt.Errorf("initialize database %q: %w", s.path, err)
	}
	s.wmu.Lock()
	s.extra = append(s.extra, tables...)
	s.wmu.Unlock()
	return nil
}
