package transition

import (
	"database/sql"
	"errors"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// Ledger statuses (docs/protocol.md#transitions): prepared → proven → committed, or rejected.
const (
	statusPrepared  = "prepared"
	statusProven    = "proven"
	statusCommitted = "committed"
	statusRejected  = "rejected"
)

// opRow is one operation of the core ledger. The precondition snapshot is
// value-free: uid, generation, revision, from ref (in the request),
// nativeIdentityDigest and desiredSpecDigest.
type opRow struct {
	Tenant, OperationID, Space, APIVersion, Kind, Name string
	Status                                             string
	DispatchAttempted                                  bool
	DispatchedAt                                       int64 // unix nanoseconds; 0 = never
	RequestDigest                                      string
	Request                                            []byte // the request as validated
	PreUID                                             string
	PreGeneration, PreRevision                         int64
	NativeIdentityDigest, DesiredSpecDigest            string
	Proof, Receipt                                     []byte
	ReceiptETag                                        string
	Rejection                                          []byte // the 409 envelope body without requestId
	FailureCode                                        string
	CreatedAt                                          int64
}

const opCols = `tenant, operation_id, space, api_version, kind, name, status, dispatch_attempted, dispatched_at,
 request_digest, request, pre_uid, pre_generation, pre_revision, native_identity_digest, desired_spec_digest,
 proof, receipt, receipt_etag, rejection, failure_code, created_at`

func scanOp(sc interface{ Scan(...any) error }) (*opRow, error) {
	var r opRow
	var at sql.NullInt64
	err := sc.Scan(&r.Tenant, &r.OperationID, &r.Space, &r.APIVersion, &r.Kind, &r.Name, &r.Status, &r.DispatchAttempted,
		&at, &r.RequestDigest, &r.Request, &r.PreUID, &r.PreGeneration, &r.PreRevision, &r.NativeIdentityDigest,
		&r.DesiredSpecDigest, &r.Proof, &r.Receipt, &r.ReceiptETag, &r.Rejection, &r.FailureCode, &r.CreatedAt)
	r.DispatchedAt = at.Int64
	return &r, err
}

func getOp(q store.Q, tenant, op string) (*opRow, error) {
	r, err := scanOp(q.QueryRow(`SELECT `+opCols+` FROM transition_ops WHERE tenant=? AND operation_id=?`, tenant, op))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

func listOps(q store.Q) ([]*opRow, error) {
	rows, err := q.Query(`SELECT ` + opCols + ` FROM transition_ops ORDER BY created_at, operation_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*opRow
	for rows.Next() {
		r, err := scanOp(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func insertOp(q store.Q, r *opRow) error {
	_, err := q.Exec(`INSERT INTO transition_ops (`+opCols+`, updated_at) VALUES (?,?,?,?,?,?,?,?,NULL,?,?,?,?,?,?,?,NULL,NULL,'',NULL,'',?,?)`,
		r.Tenant, r.OperationID, r.Space, r.APIVersion, r.Kind, r.Name, r.Status, r.DispatchAttempted,
		r.RequestDigest, r.Request, r.PreUID, r.PreGeneration, r.PreRevision, r.NativeIdentityDigest,
		r.DesiredSpecDigest, r.CreatedAt, r.CreatedAt)
	return err
}

// setDispatched is the dispatch fence (docs/protocol.md#transitions): it reports whether this
// caller won the compare-and-set.
func setDispatched(q store.Q, tenant, op string, now int64) (bool, error) {
	res, err := q.Exec(`UPDATE transition_ops SET dispatch_attempted=1, dispatched_at=?, updated_at=?
		WHERE tenant=? AND operation_id=? AND status='prepared' AND dispatch_attempted=0`, now, now, tenant, op)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// setStatus moves an operation from one status to the next (a no-op when it is not at from).
func setStatus(q store.Q, tenant, op, from, to string, now int64) (bool, error) {
	res, err := q.Exec(`UPDATE transition_ops SET status=?, updated_at=? WHERE tenant=? AND operation_id=? AND status=?`,
		to, now, tenant, op, from)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func setProof(q store.Q, tenant, op string, proof []byte) error {
	_, err := q.Exec(`UPDATE transition_ops SET proof=? WHERE tenant=? AND operation_id=?`, proof, tenant, op)
	return err
}

func setReceipt(q store.Q, tenant, op string, receipt []byte, etag string) error {
	_, err := q.Exec(`UPDATE transition_ops SET receipt=?, receipt_etag=? WHERE tenant=? AND operation_id=?`, receipt, etag, tenant, op)
	return err
}

func setRejection(q store.Q, tenant, op, code string, body []byte, now int64) error {
	_, err := q.Exec(`UPDATE transition_ops SET status='rejected', failure_code=?, rejection=?, updated_at=?
		WHERE tenant=? AND operation_id=?`, code, body, now, tenant, op)
	return err
}

// Documents are the proof, receipt and rejection the ledger keeps for one
// operation, as stored (nil when the operation has none yet).
type Documents struct{ Proof, Receipt, Rejection []byte }

// LedgerDocuments reads the Documents of every operation, keyed by tenant and
// operation id joined by a NUL byte (the dashboard's view of the ledger).
func LedgerDocuments(q store.Q) (map[string]Documents, error) {
	rows, err := q.Query(`SELECT tenant, operation_id, proof, receipt, rejection FROM transition_ops`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Documents{}
	for rows.Next() {
		var tenant, id string
		var d Documents
		if err := rows.Scan(&tenant, &id, &d.Proof, &d.Receipt, &d.Rejection); err != nil {
			return nil, err
		}
		out[tenant+"\x00"+id] = d
	}
	return out, rows.Err()
}
