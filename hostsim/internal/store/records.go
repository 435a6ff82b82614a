package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/takokit/takokit/hostsim/internal/store/bodycodec"
	"github.com/takokit/takokit/hostsim/internal/store/mirror"
)

// Record is a recorded 2xx answer for idempotent replay (docs/protocol.md#idempotency).
type Record struct {
	Tenant, Principal, Space, Key string
	Fingerprint                   string
	Status                        int
	ETag                          string
	Body                          []byte
	BoundUID, BoundOp             string
	CreatedAt                     int64
}

// GetRecord returns the record under the namespace, or nil.
func GetRecord(q Q, tenant, principal, space, key string) (*Record, error) {
	v, mirrored := viewOf(q)
	var held mirror.Record
	if mirrored {
		var ok bool
		if held, ok = v.Record(v.Hash(tenant, principal, space, key)); !ok {
			return nil, nil // the usual case of a new key: no query
		}
	}
	r := Record{Tenant: tenant, Principal: principal, Space: space, Key: key}
	var dictID int64
	if held.Row != nil { // the in-memory database: the mirror alone keeps it
		var err error
		if dictID, err = unpackRecord(held.Row, &r); err != nil {
			return nil, fmt.Errorf("record %q: %w", key, err)
		}
		r.BoundOp = held.Op
	} else {
		var fp []byte
		err := q.QueryRow(`SELECT fingerprint, status, etag, body, bound_uid, bound_op, created_at, dict FROM idempotency
		WHERE tenant=? AND principal=? AND space=? AND key=?`, tenant, principal, space, key).
			Scan(&fp, &r.Status, &r.ETag, &r.Body, &r.BoundUID, &r.BoundOp, &r.CreatedAt, &dictID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		r.Fingerprint = fingerprintText(fp)
	}
	if dictID != 0 {
		var d *bodycodec.Dict
		if mirrored {
			d = v.DictByID(dictID)
		}
		if d == nil {
			var body []byte
			if err := q.QueryRow(`SELECT body FROM dictionaries WHERE id=?`, dictID).Scan(&body); err != nil {
				return nil, fmt.Errorf("the dictionary of record %q is missing: %w", key, err)
			}
			d = bodycodec.NewDict(dictID, body)
		}
		var err error
		if r.Body, err = d.Decode(r.Body); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// PutRecord stores (or replaces) a record, its body encoded against the
// dictionary of its shape when it has one. On the in-memory database the
// mirror alone keeps it: nothing but these functions reads the table, and a
// memory database is never opened again (docs/decisions.md, "records on the
// in-memory database").
func PutRecord(q Q, r *Record) error {
	v, mirrored := viewOf(q)
	body, dictID := r.Body, int64(0)
	if mirrored && v.Writing() {
		d, err := dictFor(q, v, r.Body)
		if err != nil {
			return err
		}
		if d != nil {
			body, dictID = d.Encode(r.Body), d.ID()
		}
	}
	if memoryWrite(q) {
		v.SetRecord(v.Hash(r.Tenant, r.Principal, r.Space, r.Key),
			&mirror.Record{Row: packRecord(r, body, dictID), At: r.CreatedAt, Op: r.BoundOp})
		return nil
	}
	_, err := q.Exec(`INSERT OR REPLACE INTO idempotency (tenant, principal, space, key, fingerprint, status, etag,
		body, bound_uid, bound_op, created_at, dict) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		r.Tenant, r.Principal, r.Space, r.Key, fingerprintStored(r.Fingerprint), r.Status, r.ETag, body, r.BoundUID,
		r.BoundOp, r.CreatedAt, dictID)
	if mirrored && err == nil {
		v.SetRecord(v.Hash(r.Tenant, r.Principal, r.Space, r.Key), &mirror.Record{At: r.CreatedAt, Op: r.BoundOp})
	}
	return err
}

// memoryWrite reports whether q is a write transaction on the in-memory
// database, where the mirror alone keeps records and prepare mints.
func memoryWrite(q Q) bool {
	w, ok := q.(writeQ)
	return ok && w.w.memory
}

// fingerprintStored keeps a hex SHA-256 fingerprint as its 32 bytes (any
// other text as it is); fingerprintText reads either back.
func fingerprintStored(fp string) any {
	if len(fp) == 2*sha256.Size {
		if b, err := hex.DecodeString(fp); err == nil && hex.EncodeToString(b) == fp {
			return b
		}
	}
	return fp
}

func fingerprintText(stored []byte) string {
	if len(stored) == sha256.Size {
		return hex.EncodeToString(stored)
	}
	return string(stored)
}

// DropRecord deletes a record (retired or expired).
func DropRecord(q Q, tenant, principal, space, key string) error {
	v, mirrored := viewOf(q)
	if memoryWrite(q) {
		v.SetRecord(v.Hash(tenant, principal, space, key), nil)
		return nil
	}
	_, err := q.Exec(`DELETE FROM idempotency WHERE tenant=? AND principal=? AND space=? AND key=?`,
		tenant, principal, space, key)
	if mirrored && err == nil {
		v.SetRecord(v.Hash(tenant, principal, space, key), nil)
	}
	return err
}

// RebindOperationRecords binds records of an operation to the uid it left live ("" = nothing).
func RebindOperationRecords(q Q, opID, uid string) error {
	v, mirrored := viewOf(q)
	if !memoryWrite(q) {
		if _, err := q.Exec(`UPDATE idempotency SET bound_uid=?, bound_op='' WHERE bound_op=?`, uid, opID); err != nil || !mirrored {
			return err
		}
	}
	for _, h := range v.Waiting(opID) {
		held, _ := v.Record(h)
		if held.Row != nil {
			var r Record
			dictID, err := unpackRecord(held.Row, &r)
			if err != nil {
				return err
			}
			r.BoundUID = uid
			held.Row = packRecord(&r, r.Body, dictID)
		}
		held.Op = ""
		v.SetRecord(h, &held)
	}
	return nil
}

// MintPrepare records (or refreshes) a minted prepareDigest for a tenant. On the
// in-memory database only the mirror keeps it: nothing reads the table back but
// the load of a database file at start, and a memory database has none
// (docs/decisions.md, "prepare mints on the in-memory database").
func MintPrepare(q Q, digest, tenant string, now int64) error {
	if w, ok := q.(writeQ); ok && w.w.memory {
		v := w.w.m.View(w.w.ov)
		v.SetPrepare(v.Hash(digest, tenant), now)
		return nil
	}
	_, err := q.Exec(`INSERT INTO prepares (digest, tenant, minted_at) VALUES (?,?,?)
		ON CONFLICT(digest, tenant) DO UPDATE SET minted_at=excluded.minted_at`, digestStored(digest), tenant, now)
	if v, ok := viewOf(q); ok && err == nil {
		v.SetPrepare(v.Hash(digest, tenant), now)
	}
	return err
}

// PrepareMintedAt returns when digest was last minted for tenant.
func PrepareMintedAt(q Q, digest, tenant string) (int64, bool, error) {
	if v, ok := viewOf(q); ok {
		at, found := v.Prepare(v.Hash(digest, tenant))
		return at, found, nil
	}
	var at int64
	err := q.QueryRow(`SELECT minted_at FROM prepares WHERE digest=? AND tenant=?`, digestStored(digest), tenant).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return at, err == nil, err
}

// digestStored keeps a "sha256:" digest as its 32 bytes (any other text as
// it is); digestText reads either back.
func digestStored(d string) any {
	if rest, ok := strings.CutPrefix(d, "sha256:"); ok {
		if b, ok := fingerprintStored(rest).([]byte); ok {
			return b
		}
	}
	return d
}

func digestText(stored []byte) string {
	if len(stored) == sha256.Size {
		return "sha256:" + hex.EncodeToString(stored)
	}
	return string(stored)
}

// AddCounter adds delta to a named counter. On the in-memory database the
// mirror alone keeps counters, as it keeps records.
func AddCounter(q Q, name string, delta int64) error {
	if memoryWrite(q) {
		v, _ := viewOf(q)
		v.AddCounter(name, delta)
		return nil
	}
	_, err := q.Exec(`INSERT INTO counters (name, value) VALUES (?, ?)
		ON CONFLICT(name) DO UPDATE SET value=value+excluded.value`, name, delta)
	return err
}

// CounterValues returns every counter.
func CounterValues(q Q) (map[string]int64, error) {
	if v, ok := viewOf(q); ok && v.Alone() {
		return v.Counters(), nil
	}
	rows, err := q.Query(`SELECT name, value FROM counters`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var n string
		var v int64
		if err := rows.Scan(&n, &v); err != nil {
			return nil, err
		}
		out[n] = v
	}
	return out, rows.Err()
}

// Purge drops what has outlived its retention: idempotency records older than
// recordsBefore (never those of a pending operation) and prepare digests
// last minted before preparesBefore (Unix seconds). On the in-memory
// database both live in the mirror alone.
func Purge(q Q, recordsBefore, preparesBefore int64) error {
	if !memoryWrite(q) {
		if _, err := q.Exec(`DELETE FROM idempotency WHERE created_at < ? AND bound_op = ''`, recordsBefore); err != nil {
			return err
		}
		if _, err := q.Exec(`DELETE FROM prepares WHERE minted_at < ?`, preparesBefore); err != nil {
			return err
		}
	}
	if v, ok := viewOf(q); ok && v.Writing() {
		v.PurgeRecords(recordsBefore)
		v.PurgePrepares(preparesBefore)
	}
	return nil
}

// SetCounter sets a counter to value.
func SetCounter(q Q, name string, value int64) error {
	if memoryWrite(q) {
		v, _ := viewOf(q)
		v.SetCounter(name, value)
		return nil
	}
	_, err := q.Exec(`INSERT INTO counters (name, value) VALUES (?, ?)
		ON CONFLICT(name) DO UPDATE SET value=excluded.value`, name, value)
	return err
}
