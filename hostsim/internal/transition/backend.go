package transition

import (
	"database/sql"
	"errors"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// The simulated native backend: its objects and its own ledger of the
// transitions it applied or rejected. The core never writes these tables
// except through apply (step 5); it only reads the ledger as evidence.

// evidence is what the backend ledger holds for an operation.
type evidence struct {
	Outcome              string // "committed" | "rejected"; "" = nothing recorded
	ObservedSpecDigest   string
	NativeIdentityDigest string
	FailureCode          string
}

func backendEvidence(q store.Q, op string) (*evidence, error) {
	var e evidence
	err := q.QueryRow(`SELECT outcome, observed_spec_digest, native_identity_digest, failure_code FROM backend_ledger
		WHERE operation_id=?`, op).Scan(&e.Outcome, &e.ObservedSpecDigest, &e.NativeIdentityDigest, &e.FailureCode)
	if errors.Is(err, sql.ErrNoRows) {
		return &e, nil
	}
	return &e, err
}

// nativeIdentity is the backend object's (type, id): the object a resource
// was bound to when the backend first saw it, else derived from the resource
// (its nativeId claim when imported, else its uid). The id never leaves the host.
func nativeIdentity(q store.Q, r *store.Resource) (typ, id string, err error) {
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

func nativeIdentityDigest(typ, id string) (string, error) {
	return wire.DigestValue(map[string]string{"type": typ, "id": id})
}

// backendApply is the backend call of docs/protocol.md#transitions: convert the native object to
// the new definition (identity unchanged) and record the outcome in the same
// backend transaction. failure != "" rejects definitively instead.
func backendApply(q store.Q, r *opRow, res *store.Resource, toVersion, failure string, now int64) error {
	typ, id, err := nativeIdentity(q, res)
	if err != nil {
		return err
	}
	nd, err := nativeIdentityDigest(typ, id)
	if err != nil {
		return err
	}
	if failure != "" {
		_, err = q.Exec(`INSERT INTO backend_ledger (operation_id, tenant, uid, outcome, failure_code, at) VALUES (?,?,?,'rejected',?,?)`,
			r.OperationID, r.Tenant, r.PreUID, failure, now)
		return err
	}
	if _, err := q.Exec(`INSERT INTO backend_objects (uid, native_type, native_id, definition_version, spec_digest, updated_at)
		VALUES (?,?,?,?,?,?) ON CONFLICT(uid) DO UPDATE SET definition_version=excluded.definition_version,
		spec_digest=excluded.spec_digest, updated_at=excluded.updated_at`, r.PreUID, typ, id, toVersion, r.DesiredSpecDigest, now); err != nil {
		return err
	}
	_, err = q.Exec(`INSERT INTO backend_ledger (operation_id, tenant, uid, outcome, observed_spec_digest, native_identity_digest, at)
		VALUES (?,?,?,'committed',?,?,?)`, r.OperationID, r.Tenant, r.PreUID, r.DesiredSpecDigest, nd, now)
	return err
}

// BackendObject and BackendRecord are the admin view of the backend.
type BackendObject struct {
	UID                  string `json:"uid"`
	NativeIdentityDigest string `json:"nativeIdentityDigest"`
	DefinitionVersion    string `json:"definitionVersion"`
	SpecDigest           string `json:"specDigest"`
}

type BackendRecord struct {
	OperationID        string `json:"operationId"`
	UID                string `json:"uid"`
	Outcome            string `json:"outcome"`
	ObservedSpecDigest string `json:"observedSpecDigest,omitempty"`
	FailureCode        string `json:"failureCode,omitempty"`
}

func backendState(q store.Q) ([]BackendObject, []BackendRecord, error) {
	objs, recs := []BackendObject{}, []BackendRecord{}
	rows, err := q.Query(`SELECT uid, native_type, native_id, definition_version, spec_digest FROM backend_objects ORDER BY uid`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		var o BackendObject
		var typ, id string
		if err := rows.Scan(&o.UID, &typ, &id, &o.DefinitionVersion, &o.SpecDigest); err != nil {
			rows.Close()
			return nil, nil, err
		}
		o.NativeIdentityDigest, _ = nativeIdentityDigest(typ, id)
		objs = append(objs, o)
	}
	rows.Close()
	rows, err = q.Query(`SELECT operation_id, uid, outcome, observed_spec_digest, failure_code FROM backend_ledger ORDER BY at, operation_id`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r BackendRecord
		if err := rows.Scan(&r.OperationID, &r.UID, &r.Outcome, &r.ObservedSpecDigest, &r.FailureCode); err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
	}
	return objs, recs, rows.Err()
}
