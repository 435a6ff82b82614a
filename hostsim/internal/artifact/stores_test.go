package artifact_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/artifact/artifacttest"
)

// testStore is a Store the tests can also inspect and corrupt.
type testStore interface {
	artifact.Store
	StoredBlob(digest string) bool
	CorruptBlob(digest string, data []byte)
	CorruptManifest(digest string, raw []byte)
}

type sqlStore struct {
	artifact.SQL
	t  *testing.T
	db *sql.DB
}

func (s sqlStore) StoredBlob(d string) bool {
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM artifact_blobs WHERE digest=?`, d).Scan(&n); err != nil {
		s.t.Fatal(err)
	}
	return n > 0
}

func (s sqlStore) CorruptBlob(d string, data []byte) {
	if _, err := s.db.Exec(`UPDATE artifact_blobs SET data=? WHERE digest=?`, data, d); err != nil {
		s.t.Fatal(err)
	}
}

func (s sqlStore) CorruptManifest(d string, raw []byte) {
	if _, err := s.db.Exec(`UPDATE artifact_manifests SET raw=? WHERE digest=?`, raw, d); err != nil {
		s.t.Fatal(err)
	}
}

func newSQLStore(t *testing.T) testStore {
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "artifacts.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(artifact.Schema); err != nil {
		t.Fatal(err)
	}
	return sqlStore{SQL: artifact.SQL{Q: db}, t: t, db: db}
}

// forEachStore runs fn against the in-memory double and the SQLite Store, so both
// implementations are held to the same behaviour.
func forEachStore(t *testing.T, fn func(t *testing.T, st testStore)) {
	t.Run("mem", func(t *testing.T) { fn(t, artifacttest.NewMem()) })
	t.Run("sqlite", func(t *testing.T) { fn(t, newSQLStore(t)) })
}

func TestSQLStoreInTransaction(t *testing.T) {
	st := newSQLStore(t).(sqlStore)
	tx, err := st.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	s, err := artifact.Start(artifact.SQL{Q: tx}, alice, doc(t, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := st.GetUpload(s.UploadID); ok {
		t.Fatal("a rolled-back start left its session behind")
	}
}
