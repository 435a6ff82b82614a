package artifact

import (
	"database/sql"
	"errors"
)

// Schema creates the artifact tables (idempotent). hostsim runs it with its own schema
// when it opens the database; Tables lists them for a reset.
const Schema = `
CREATE TABLE IF NOT EXISTS artifact_uploads (
  id TEXT PRIMARY KEY, tenant TEXT NOT NULL, principal TEXT NOT NULL,
  manifest BLOB NOT NULL, manifest_digest TEXT NOT NULL, state TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS artifact_uploads_tenant ON artifact_uploads(tenant, state);
CREATE TABLE IF NOT EXISTS artifact_blobs (digest TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS artifact_blob_holds (
  tenant TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (tenant, digest));
CREATE INDEX IF NOT EXISTS artifact_blob_holds_digest ON artifact_blob_holds(digest);
CREATE TABLE IF NOT EXISTS artifact_manifests (digest TEXT PRIMARY KEY, raw BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS artifact_manifest_holds (
  tenant TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (tenant, digest));
`

// Tables are the tables Schema creates.
var Tables = []string{"artifact_uploads", "artifact_blobs", "artifact_blob_holds", "artifact_manifests", "artifact_manifest_holds"}

// Q is what SQL needs from a database handle: *sql.DB and *sql.Tx both qualify.
type Q interface {
	Exec(query string, args ...any) (sql.Result, error)
	Query(query string, args ...any) (*sql.Rows, error)
	QueryRow(query string, args ...any) *sql.Row
}

// SQL is the Store over SQLite tables created by Schema. Wrap the request's write
// transaction (SQL{Q: tx}) so each flow step commits or rolls back as one.
type SQL struct{ Q Q }

var _ Store = SQL{}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func (s SQL) InsertUpload(u Upload) error {
	_, err := s.Q.Exec(`INSERT INTO artifact_uploads (id, tenant, principal, manifest, manifest_digest, state) VALUES (?,?,?,?,?,?)`,
		u.ID, u.Tenant, u.Principal, nonNil(u.Manifest), u.ManifestDigest, string(u.State))
	return err
}

func (s SQL) UpdateUpload(u Upload) error {
	_, err := s.Q.Exec(`UPDATE artifact_uploads SET tenant=?, principal=?, manifest=?, manifest_digest=?, state=? WHERE id=?`,
		u.Tenant, u.Principal, nonNil(u.Manifest), u.ManifestDigest, string(u.State), u.ID)
	return err
}

func (s SQL) GetUpload(id string) (Upload, bool, error) {
	var u Upload
	var state string
	err := s.Q.QueryRow(`SELECT id, tenant, principal, manifest, manifest_digest, state FROM artifact_uploads WHERE id=?`, id).
		Scan(&u.ID, &u.Tenant, &u.Principal, &u.Manifest, &u.ManifestDigest, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return Upload{}, false, nil
	}
	u.State = UploadState(state)
	return u, err == nil, err
}

func (s SQL) OpenUploads(tenant string) ([]Upload, error) {
	rows, err := s.Q.Query(`SELECT id, tenant, principal, manifest, manifest_digest, state FROM artifact_uploads
		WHERE tenant=? AND state=? ORDER BY id`, tenant, string(UploadOpen))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Upload
	for rows.Next() {
		var u Upload
		var state string
		if err := rows.Scan(&u.ID, &u.Tenant, &u.Principal, &u.Manifest, &u.ManifestDigest, &state); err != nil {
			return nil, err
		}
		u.State = UploadState(state)
		out = append(out, u)
	}
	return out, rows.Err()
}

func (s SQL) exists(query string, args ...any) (bool, error) {
	var one int
	err := s.Q.QueryRow(query, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func (s SQL) bytes(query string, arg string) ([]byte, bool, error) {
	var b []byte
	err := s.Q.QueryRow(query, arg).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return nonNil(b), err == nil, err
}

func (s SQL) HoldsBlob(tenant, digest string) (bool, error) {
	return s.exists(`SELECT 1 FROM artifact_blob_holds WHERE tenant=? AND digest=?`, tenant, digest)
}

func (s SQL) BlobBytes(digest string) ([]byte, bool, error) {
	return s.bytes(`SELECT data FROM artifact_blobs WHERE digest=?`, digest)
}

func (s SQL) PutBlob(tenant, digest string, data []byte) error {
	if _, err := s.Q.Exec(`INSERT OR IGNORE INTO artifact_blobs (digest, data) VALUES (?,?)`, digest, nonNil(data)); err != nil {
		return err
	}
	_, err := s.Q.Exec(`INSERT OR IGNORE INTO artifact_blob_holds (tenant, digest) VALUES (?,?)`, tenant, digest)
	return err
}

func (s SQL) ReleaseBlob(tenant, digest string) error {
	if _, err := s.Q.Exec(`DELETE FROM artifact_blob_holds WHERE tenant=? AND digest=?`, tenant, digest); err != nil {
		return err
	}
	_, err := s.Q.Exec(`DELETE FROM artifact_blobs WHERE digest=? AND NOT EXISTS
		(SELECT 1 FROM artifact_blob_holds WHERE digest=?)`, digest, digest)
	return err
}

func (s SQL) HoldsManifest(tenant, digest string) (bool, error) {
	return s.exists(`SELECT 1 FROM artifact_manifest_holds WHERE tenant=? AND digest=?`, tenant, digest)
}

func (s SQL) ManifestBytes(digest string) ([]byte, bool, error) {
	return s.bytes(`SELECT raw FROM artifact_manifests WHERE digest=?`, digest)
}

func (s SQL) PutManifest(tenant, digest string, raw []byte) error {
	if _, err := s.Q.Exec(`INSERT OR IGNORE INTO artifact_manifests (digest, raw) VALUES (?,?)`, digest, nonNil(raw)); err != nil {
		return err
	}
	_, err := s.Q.Exec(`INSERT OR IGNORE INTO artifact_manifest_holds (tenant, digest) VALUES (?,?)`, tenant, digest)
	return err
}

func (s SQL) TenantManifests(tenant string) ([]string, error) {
	rows, err := s.Q.Query(`SELECT digest FROM artifact_manifest_holds WHERE tenant=? ORDER BY digest`, tenant)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
