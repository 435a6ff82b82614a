// Package backend is the simulated native backend behind Form transitions
// (docs/protocol.md#transitions): its objects and its own ledger of the
// transitions it applied or rejected. The transition core never writes these
// tables except through Apply (its step 5); it only reads the ledger as
// Evidence. Core ledger and backend share hostsim's SQLite database but are
// separate tables written by separate code paths and separate transactions,
// so a crash can fall between them.
package backend

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Schema is the backend's native objects and ledger.
const Schema = `
CREATE TABLE IF NOT EXISTS backend_objects (
  uid TEXT PRIMARY KEY, native_type TEXT NOT NULL, native_id TEXT NOT NULL,
  definition_version TEXT NOT NULL, spec_digest TEXT NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS backend_ledger (
  operation_id TEXT PRIMARY KEY, tenant TEXT NOT NULL, uid TEXT NOT NULL, outcome TEXT NOT NULL,
  observed_spec_digest TEXT NOT NULL DEFAULT '', native_identity_digest TEXT NOT NULL DEFAULT '',
  failure_code TEXT NOT NULL DEFAULT '', at INTEGER NOT NULL);
`

// Tables are Schema's tables, emptied by POST /_sim/reset.
var Tables = []string{"backend_objects", "backend_ledger"}

// Evidence is what the backend ledger holds for an operation.
type Evidence struct {
	Outcome              string // "committed" | "rejected"; "" = nothing recorded
	ObservedSpecDigest   string
	NativeIdentityDigest string
	FailureCode          string
}

// ReadEvidence reads what the ledger holds for operation op (an empty
// Outcome when it holds nothing).
func ReadEvidence(q store.Q, op string) (*Evidence, error) {
	var e Evidence
	err := q.QueryRow(`SELECT outcome, observed_spec_digest, native_identity_digest, failure_code FROM backend_ledger
		WHERE operation_id=?`, op).Scan(&e.Outcome, &e.ObservedSpecDigest, &e.NativeIdentityDigest, &e.FailureCode)
	if errors.Is(err, sql.ErrNoRows) {
		return &e, nil
	}
	return &e, err
}

// Identity is the backend object's (type, id): the object a resource
// was bound to when the backend first saw it, else derived from the resource
// (its nativeId claim when imported, else its uid). The id never leaves the host.
func Identity(q store.Q, r *store.Resource) (typ, id string, err error) {
	err = q.QueryRow(`SELECT native_type, native_id FROM backend_objects WHERE uid=?`, r.UID).Scan(&typ, &id)
	if err == nil {
		return typ, id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", "", err
	}
	typ = "hostsim." + strings.ToLower(r.Kind)
	if r.NativeID != "" {
		return typ, r.NativeID, nil
	}
	return typ, "native-" + r.UID, nil
}

// IdentityDigest is the digest of a native identity, the only form of it
// that leaves the host.
func IdentityDigest(typ, id string) (string, error) {
	return wire.DigestValue(map[string]string{"type": typ, "id": id})
}

// Op is what Apply needs of a transition operation.
type Op struct {
	OperationID, Tenant string
	UID                 string // the resource's uid before the transition
	DesiredSpecDigest   string
}

// Apply is the backend call of docs/protocol.md#transitions: convert the native object to
// the new definition (identity unchanged) and record the outcome in the same
// backend transaction. failure != "" rejects definitively instead.
func Apply(q store.Q, r Op, res *store.Resource, toVersion, failure string, now int64) error {
	typ, id, err := Identity(q, res)
	if err != nil {
		return err
	}
	nd, err := IdentityDigest(typ, id)
	if err != nil {
		return err
	}
	if failure != "" {
		_, err = q.Exec(`INSERT INTO backend_ledger (operation_id, tenant, uid, outcome, failure_code, at) VALUES (?,?,?,'rejected',?,?)`,
			r.OperationID, r.Tenant, r.UID, failure, now)
		return err
	}
	if _, err := q.Exec(`INSERT INTO backend_objects (uid, native_type, native_id, definition_version, spec_digest, updated_at)
		VALUES (?,?,?,?,?,?) ON CONFLICT(uid) DO UPDATE SET definition_version=excluded.definition_version,
		spec_digest=excluded.spec_digest, updated_at=excluded.updated_at`, r.UID, typ, id, toVersion, r.DesiredSpecDigest, now); err != nil {
		return err
	}
	_, err = q.Exec(`INSERT INTO backend_ledger (operation_id, tenant, uid, outcome, observed_spec_digest, native_identity_digest, at)
		VALUES (?,?,?,'committed',?,?,?)`, r.OperationID, r.Tenant, r.UID, r.DesiredSpecDigest, nd, now)
	return err
}

// Object and Record are the admin view of the backend.
type Object struct {
	UID                  string `json:"uid"`
	NativeIdentityDigest string `json:"nativeIdentityDigest"`
	DefinitionVersion    string `json:"definitionVersion"`
	SpecDigest           string `json:"specDigest"`
}

type Record struct {
	OperationID        string `json:"operationId"`
	UID                string `json:"uid"`
	Outcome            string `json:"outcome"`
	ObservedSpecDigest string `json:"observedSpecDigest,omitempty"`
	FailureCode        string `json:"failureCode,omitempty"`
}

// State lists the backend's objects and its ledger.
func State(q store.Q) ([]Object, []Record, error) {
	objs, recs := []Object{}, []Record{}
	rows, err := q.Query(`SELECT uid, native_type, native_id, definition_version, spec_digest FROM backend_objects ORDER BY uid`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var o Object
		var typ, id string
		if err := rows.Scan(&o.UID, &typ, &id, &o.DefinitionVersion, &o.SpecDigest); err != nil {
			rows.Close()
			return nil, nil, err
		}
		o.NativeIdentityDigest, _ = IdentityDigest(typ, id)
		objs = append(objs, o)
	}
	rows.Close()
	rows, err = q.Query(`SELECT operation_id, uid, outcome, observed_spec_digest, failure_code FROM backend_ledger ORDER BY at, operation_id`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r Record
		if err := rows.Scan(&r.OperationID, &r.UID, &r.Outcome, &r.ObservedSpecDigest, &r.FailureCode); err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
	}
	return objs, recs, rows.Err()
}
