package rules

import (
	"fmt"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// SQLite migration history (docs/protocol.md#migrations): a database's ledger
// is the files applied to it, in order; a migration set is an ordered list of
// files. A file is known by its path and digest together.

// MigrationFile is one migration file by its identity.
type MigrationFile struct {
	Path, Digest string
}

func (f MigrationFile) String() string { return fmt.Sprintf("%q (%s)", f.Path, f.Digest) }

// LedgerPrefix proves that ledger is an exact prefix of set and returns how
// many of set's files are applied: the unapplied suffix is set[n:]. An applied
// file the set drops, moves or lists with another digest is migration_required
// at pointer, naming it; nothing may run then. database and setName name the
// two in the message.
func LedgerPrefix(pointer string, ledger, set []MigrationFile, database, setName string) (int, *Refusal) {
	for i, applied := range ledger {
		if i < len(set) && set[i] == applied {
			continue
		}
		why := divergence(i, applied, set)
		return 0, refuse(wire.CodeMigrationRequired, pointer,
			"%s: %s has applied %d migration file(s), and %s must begin with exactly those, in order; applied file %d %s %s. "+
				"Nothing was run and nothing changed. A set may only add files after the applied ones: keep the applied files "+
				"unchanged and in their order, and put your change in a new file at the end of a new set",
			pointer, database, len(ledger), setName, i+1, applied, why)
	}
	return len(ledger), nil
}

// divergence says how set departs from the applied file at index i.
func divergence(i int, applied MigrationFile, set []MigrationFile) string {
	for j, f := range set {
		if f == applied {
			return fmt.Sprintf("is file %d of the set instead (moved)", j+1)
		}
	}
	for j, f := range set {
		if f.Path == applied.Path {
			return fmt.Sprintf("is listed as file %d of the set with digest %s (rewritten)", j+1, f.Digest)
		}
	}
	if i < len(set) {
		return fmt.Sprintf("is absent from the set, whose file %d is %s", i+1, set[i])
	}
	return fmt.Sprintf("is absent from the set, which lists only %d file(s)", len(set))
}

// LedgerReadiness renders a migration application's Ready: ready exactly when
// the database's ledger equals the set. Otherwise it says which files differ.
func LedgerReadiness(ledger, set []MigrationFile, database, setName string) Readiness {
	n := 0
	for n < len(ledger) && n < len(set) && ledger[n] == set[n] {
		n++
	}
	switch {
	case n == len(ledger) && n == len(set):
		return Readiness{Ready: true, Reason: wire.ReasonAvailable}
	case n == len(ledger):
		return Readiness{Reason: wire.ReasonSpecDrift, HostReason: "ledger-behind-set",
			Message: fmt.Sprintf("%s has applied %d of the %d files of %s; not applied: %s. Apply the application again "+
				"(a new application of the same set) to run them", database, n, len(set), setName, list(set[n:]))}
	case n == len(set):
		return Readiness{Reason: wire.ReasonExternalChange, HostReason: "ledger-ahead-of-set",
			Message: fmt.Sprintf("%s has applied every file of %s and %d more, which another application applied: %s. "+
				"This application stays stored but is not ready; the newer application describes the database", database, setName,
				len(ledger)-n, list(ledger[n:]))}
	}
	return Readiness{Reason: wire.ReasonExternalChange, HostReason: "ledger-diverged",
		Message: fmt.Sprintf("%s's ledger departs from %s at file %d: applied %s, the set lists %s", database, setName, n+1,
			ledger[n], set[n])}
}

// list names files, at most 5.
func list(files []MigrationFile) string {
	var parts []string
	for i, f := range files {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(files)-i))
			break
		}
		parts = append(parts, f.String())
	}
	return strings.Join(parts, ", ")
}
