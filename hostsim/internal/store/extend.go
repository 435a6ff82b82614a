package store

import "fmt"

// Extend creates the tables of a package that keeps its own state in this
// database (internal/transition: the transition ledger, claims and the
// simulated backend) and has Reset empty them too.
func (s *Store) Extend(ddl string, tables ...string) error {
	if _, err := s.db.Exec(ddl); err != nil {
		return fmt.Errorf("initialize database %q: %w", s.path, err)
	}
	s.wmu.Lock()
	s.extra = append(s.extra, tables...)
	s.wmu.Unlock()
	return nil
}
