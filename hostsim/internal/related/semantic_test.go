package related

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// A migration application whose set's manifest cannot be resolved is refused
// by the semantic checks, before the aggregate rules run.
func TestSemanticRefusesAnUnresolvableMigrationSet(t *testing.T) {
	w := newWorld(t)
	if err := w.st.Extend(artifact.Schema, artifact.Tables...); err != nil {
		t.Fatal(err)
	}
	w.put("SQLiteDatabase", "sqlite-database", "u-db", nil)
	w.put("SQLiteMigrationSet", "sqlite-migration-set", "u-set", nil)
	pins := []store.Pin{w.pinTo("/database", "/database", "SQLiteDatabase", "sqlite-database", "u-db"),
		w.pinTo("/migrationSet", "/migrationSet", "SQLiteMigrationSet", "sqlite-migration-set", "u-set")}
	m, gd := w.mutation("SQLiteMigrationApplication", "migrate")
	w.write(func(q store.Q) error {
		e := w.g.Semantic(q, gd.Form, m, gd, pins, "", nil)
		if e == nil || e.Code != wire.CodeArtifactMissing || !strings.Contains(e.Message, `SQLiteMigrationApplication "migrate" in space "prod": /migrationSet: manifest `) {
			t.Fatalf("a set whose manifest was never uploaded: %v; want artifact_missing at /migrationSet", e)
		}
		return nil
	})
}
