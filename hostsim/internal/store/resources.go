package store

import (
	"database/sql"
	"errors"

	"github.com/takokit/takokit/hostsim/internal/store/mirror"
	"github.com/takokit/takokit/hostsim/internal/stored"
)

// Q is what both a transaction and the pool offer.
type Q interface {
	Exec(query string, args ...any) (sql.Result, error)
	Query(query string, args ...any) (*sql.Rows, error)
	QueryRow(query string, args ...any) *sql.Row
}

// Resource is one stored incarnation; the value type lives in package
// stored, so the decisions take it without the store.
type Resource = stored.Resource

const resourceCols = `tenant, space, api_version, kind, name, uid, def_version, schema_digest, generation, revision,
 spec, spec_digest, native_id, ready_status, ready_reason, ready_host_reason, ready_message, ready_ltt, touches, created_at,
 pins, claim_op, claim_since, claim_path, last_transition`

func scanResource(sc interface{ Scan(...any) error }) (*Resource, error) {
	var r Resource
	var native sql.NullString
	var spec string
	err := sc.Scan(&r.Tenant, &r.Space, &r.APIVersion, &r.Kind, &r.Name, &r.UID, &r.DefVersion, &r.SchemaDigest,
		&r.Generation, &r.Revision, &spec, &r.SpecDigest, &native, &r.ReadyStatus, &r.ReadyReason,
		&r.ReadyHostReason, &r.ReadyMessage, &r.ReadyLTT, &r.Touches, &r.CreatedAt,
		&r.Pins, &r.ClaimOp, &r.ClaimSince, &r.ClaimPath, &r.LastTransition)
	if err != nil {
		return nil, err
	}
	r.Spec = []byte(spec)
	r.NativeID = native.String
	return &r, nil
}

// GetResource returns the resource holding the name, or nil.
func GetResource(q Q, tenant, space, apiVersion, kind, name string) (*Resource, error) {
	if v, ok, err := lookupView(q); err != nil {
		return nil, err
	} else if ok {
		return clone(v.Resource(mirror.Addr{Tenant: tenant, Space: space, APIVersion: apiVersion, Kind: kind, Name: name})), nil
	}
	r, err := scanResource(q.QueryRow(`SELECT `+resourceCols+` FROM resources
		WHERE tenant=? AND space=? AND api_version=? AND kind=? AND name=?`, tenant, space, apiVersion, kind, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// GetResourceInAnySpace returns the tenant's resource of that kind and name in
// any space, or nil (only for the fault space.ignore).
func GetResourceInAnySpace(q Q, tenant, apiVersion, kind, name string) (*Resource, error) {
	r, err := scanResource(q.QueryRow(`SELECT `+resourceCols+` FROM resources
		WHERE tenant=? AND api_version=? AND kind=? AND name=? ORDER BY space LIMIT 1`, tenant, apiVersion, kind, name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// GetResourceByUID returns the live resource with that uid, or nil.
func GetResourceByUID(q Q, uid string) (*Resource, error) {
	if v, ok, err := lookupView(q); err != nil {
		return nil, err
	} else if ok {
		return clone(v.ByUID(uid)), nil
	}
	r, err := scanResource(q.QueryRow(`SELECT `+resourceCols+` FROM resources WHERE uid=?`, uid))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return r, err
}

// UIDLive reports whether a resource with uid exists.
func UIDLive(q Q, uid string) (bool, error) {
	if v, ok, err := lookupView(q); err != nil {
		return false, err
	} else if ok {
		return v.ByUID(uid) != nil, nil
	}
	var n int
	err := q.QueryRow(`SELECT count(*) FROM resources WHERE uid=?`, uid).Scan(&n)
	return n > 0, err
}

// NativeHolder names the uid holding a nativeId claim in a tenant, or "".
func NativeHolder(q Q, tenant, nativeID string) (string, error) {
	var uid string
	err := q.QueryRow(`SELECT uid FROM resources WHERE tenant=? AND native_id=?`, tenant, nativeID).Scan(&uid)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return uid, err
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// InsertResource stores a new incarnation.
func InsertResource(q Q, r *Resource) error {
	_, err := q.Exec(`INSERT INTO resources (`+resourceCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name, r.UID, r.DefVersion, r.SchemaDigest, r.Generation, r.Revision,
		string(r.Spec), r.SpecDigest, nullable(r.NativeID), r.ReadyStatus, r.ReadyReason, r.ReadyHostReason,
		r.ReadyMessage, r.ReadyLTT, r.Touches, r.CreatedAt, r.Pins, r.ClaimOp, r.ClaimSince, r.ClaimPath, r.LastTransition)
	if v, ok := viewOf(q); ok && err == nil {
		c := clone(r)
		c.Spec = cloneBytes(r.Spec)
		v.SetResource(r.UID, c)
	}
	return err
}

// UpdateResource rewrites the mutable columns of an incarnation (by uid).
func UpdateResource(q Q, r *Resource) error {
	_, err := q.Exec(`UPDATE resources SET def_version=?, schema_digest=?, generation=?, revision=?, spec=?,
		spec_digest=?, native_id=?, ready_status=?, ready_reason=?, ready_host_reason=?, ready_message=?,
		ready_ltt=?, touches=?, pins=?, claim_op=?, claim_since=?, claim_path=?, last_transition=? WHERE uid=?`,
		r.DefVersion, r.SchemaDigest, r.Generation, r.Revision, string(r.Spec), r.SpecDigest, nullable(r.NativeID),
		r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage, r.ReadyLTT, r.Touches,
		r.Pins, r.ClaimOp, r.ClaimSince, r.ClaimPath, r.LastTransition, r.UID)
	if v, ok := viewOf(q); ok && err == nil {
		if old := v.ByUID(r.UID); old != nil {
			n := *old // the address columns stay as stored
			n.DefVersion, n.SchemaDigest, n.Generation, n.Revision = r.DefVersion, r.SchemaDigest, r.Generation, r.Revision
			n.Spec, n.SpecDigest, n.NativeID = cloneBytes(r.Spec), r.SpecDigest, r.NativeID
			n.ReadyStatus, n.ReadyReason, n.ReadyHostReason, n.ReadyMessage = r.ReadyStatus, r.ReadyReason, r.ReadyHostReason, r.ReadyMessage
			n.ReadyLTT, n.Touches, n.Pins = r.ReadyLTT, r.Touches, r.Pins
			n.ClaimOp, n.ClaimSince, n.ClaimPath, n.LastTransition = r.ClaimOp, r.ClaimSince, r.ClaimPath, r.LastTransition
			v.SetResource(r.UID, &n)
		}
	}
	return err
}

// DeleteResource removes an incarnation and the pins it holds.
func DeleteResource(q Q, r *Resource) error {
	v, mirrored := viewOf(q)
	if r.Pins > 0 {
		if _, err := q.Exec(`DELETE FROM pins WHERE source_uid=?`, r.UID); err != nil {
			return err
		}
		if mirrored {
			v.SetPins(r.UID, nil)
		}
	}
	_, err := q.Exec(`DELETE FROM resources WHERE uid=?`, r.UID)
	if mirrored && err == nil {
		v.SetResource(r.UID, nil)
	}
	return err
}

// clone is a private copy of r (nil for nil): what the mirror hands out
// and keeps is never shared with a caller that may change it.
func clone(r *Resource) *Resource {
	if r == nil {
		return nil
	}
	c := *r
	return &c
}

func cloneBytes(b []byte) []byte { return append(make([]byte, 0, len(b)), b...) }

// ListResources returns every stored resource, ordered by address.
func ListResources(q Q) ([]*Resource, error) {
	return queryResources(q, `SELECT `+resourceCols+` FROM resources ORDER BY tenant, space, api_version, kind, name`)
}

// queryResources runs a SELECT of resourceCols and scans every row it answers.
func queryResources(q Q, query string, args ...any) ([]*Resource, error) {
	rows, err := q.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Resource
	for rows.Next() {
		r, err := scanResource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
