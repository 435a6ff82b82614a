package store

import (
	"database/sql"
	"errors"

	"github.com/takokit/takokit/hostsim/internal/stored"
)

// Operation is one long-running mutation (docs/protocol.md#operations); the
// value type lives in package stored.
type Operation = stored.Operation

// InsertOperation records an accepted operation.
func InsertOperation(q Q, o *Operation) error {
	_, err := q.Exec(`INSERT INTO operations (id, tenant, principal, action, kind, name, request, target_uid, polls,
		complete_after, done, doc, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		o.ID, o.Tenant, o.Principal, o.Action, o.Kind, o.Name, o.Request, o.TargetUID, o.Polls, o.CompleteAfter,
		o.Done, o.Doc, o.CreatedAt)
	return err
}

// GetOperation returns the operation by id, or nil.
func GetOperation(q Q, id string) (*Operation, error) {
	var o Operation
	err := q.QueryRow(`SELECT id, tenant, principal, action, kind, name, request, target_uid, polls, complete_after,
		done, doc, created_at FROM operations WHERE id=?`, id).Scan(&o.ID, &o.Tenant, &o.Principal, &o.Action,
		&o.Kind, &o.Name, &o.Request, &o.TargetUID, &o.Polls, &o.CompleteAfter, &o.Done, &o.Doc, &o.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &o, err
}

// UpdateOperation rewrites polls, done and doc.
func UpdateOperation(q Q, o *Operation) error {
	_, err := q.Exec(`UPDATE operations SET polls=?, done=?, doc=?, target_uid=? WHERE id=?`,
		o.Polls, o.Done, o.Doc, o.TargetUID, o.ID)
	return err
}

// ListOperations returns every operation, oldest first.
func ListOperations(q Q) ([]*Operation, error) {
	rows, err := q.Query(`SELECT id, tenant, principal, action, kind, name, request, target_uid, polls,
		complete_after, done, doc, created_at FROM operations ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Operation
	for rows.Next() {
		var o Operation
		if err := rows.Scan(&o.ID, &o.Tenant, &o.Principal, &o.Action, &o.Kind, &o.Name, &o.Request, &o.TargetUID,
			&o.Polls, &o.CompleteAfter, &o.Done, &o.Doc, &o.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, &o)
	}
	return out, rows.Err()
}
