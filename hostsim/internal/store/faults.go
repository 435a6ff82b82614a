package store

import (
	"database/sql"
	"errors"
)

// FaultRow is one armed fault; Remaining < 0 means "always".
type FaultRow struct {
	ID        int64
	Source    string // profile | runtime
	Doc       []byte // the fault object as armed
	Remaining int64
	Fired     int64
}

// InsertFault arms a fault.
func InsertFault(q Q, source string, doc []byte, count int64) error {
	var rem any
	if count > 0 {
		rem = count
	}
	_, err := q.Exec(`INSERT INTO faults (source, doc, remaining) VALUES (?,?,?)`, source, string(doc), rem)
	return err
}

// ListFaults returns armed faults, profile ones first, in arming order.
func ListFaults(q Q) ([]FaultRow, error) {
	rows, err := q.Query(`SELECT id, source, doc, coalesce(remaining, -1), fired FROM faults
		ORDER BY CASE source WHEN 'profile' THEN 0 ELSE 1 END, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []FaultRow
	for rows.Next() {
		var f FaultRow
		var d string
		if err := rows.Scan(&f.ID, &f.Source, &d, &f.Remaining, &f.Fired); err != nil {
			return nil, err
		}
		f.Doc = []byte(d)
		out = append(out, f)
	}
	return out, rows.Err()
}

// FireFault counts one firing; a fault whose count is spent is disarmed.
func FireFault(q Q, id int64) error {
	if _, err := q.Exec(`UPDATE faults SET fired=fired+1, remaining=remaining-1 WHERE id=?`, id); err != nil {
		return err
	}
	_, err := q.Exec(`DELETE FROM faults WHERE id=? AND remaining IS NOT NULL AND remaining <= 0`, id)
	return err
}

// ClearRuntimeFaults disarms every fault armed at run time.
func ClearRuntimeFaults(q Q) error {
	_, err := q.Exec(`DELETE FROM faults WHERE source='runtime'`)
	return err
}

// ClearProfileFaults removes the profile's faults (before re-arming them at start).
func ClearProfileFaults(q Q) error {
	_, err := q.Exec(`DELETE FROM faults WHERE source='profile'`)
	return err
}

// GetResourceOfKindInAnyGroup returns the tenant's resource of that kind name
// and name in the space, in whichever group holds one, or nil (only for the
// fault identity.kind-only, which addresses resources by kind alone).
func GetResourceOfKindInAnyGroup(q Q, tenant, space, kind, name string) (*Resource, error) {
	r, err := scanResource(q.QueryRow(`SELECT `+resourceCols+` FROM resources
		WHERE tenant=? AND space=? AND kind=? AND name=? ORDER BY api_version LIMIT 1`, tenant, space, kind, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}
