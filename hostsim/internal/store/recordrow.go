package store

import (
	"encoding/binary"
	"errors"
)

// packRecord is a record as the in-memory database keeps it in the mirror
// (PutRecord): its status, creation time and dictionary as varints, then its
// fingerprint (the 32 bytes of a hex SHA-256, as SQLite keeps it), ETag,
// bound uid and body (encoded against the dictionary), each after its
// length. Its key and the operation it waits on are the mirror's own.
func packRecord(r *Record, body []byte, dictID int64) []byte {
	fp := fingerprintBytes(r.Fingerprint)
	b := make([]byte, 0, 3*binary.MaxVarintLen64+4*binary.MaxVarintLen32+len(fp)+len(r.ETag)+len(r.BoundUID)+len(body))
	b = binary.AppendVarint(b, int64(r.Status))
	b = binary.AppendVarint(b, r.CreatedAt)
	b = binary.AppendVarint(b, dictID)
	for _, part := range [][]byte{fp, []byte(r.ETag), []byte(r.BoundUID), body} {
		b = binary.AppendUvarint(b, uint64(len(part)))
		b = append(b, part...)
	}
	return b
}

var errBadRow = errors.New("the packed record is damaged")

// unpackRecord fills r's status, creation time, fingerprint, ETag, bound
// uid and (still encoded) body from a packed row, and returns its dictionary.
// The body is r's own copy.
func unpackRecord(row []byte, r *Record) (dictID int64, err error) {
	var ints [3]int64
	for i := range ints {
		v, n := binary.Varint(row)
		if n <= 0 {
			return 0, errBadRow
		}
		ints[i], row = v, row[n:]
	}
	var parts [4][]byte
	for i := range parts {
		l, n := binary.Uvarint(row)
		if n <= 0 || l > uint64(len(row)-n) {
			return 0, errBadRow
		}
		parts[i], row = row[n:n+int(l)], row[n+int(l):]
	}
	if len(row) != 0 {
		return 0, errBadRow
	}
	r.Status, r.CreatedAt = int(ints[0]), ints[1]
	r.Fingerprint, r.ETag, r.BoundUID = fingerprintText(parts[0]), string(parts[1]), string(parts[2])
	r.Body = append([]byte(nil), parts[3]...)
	return ints[2], nil
}

// fingerprintBytes is fingerprintStored as bytes.
func fingerprintBytes(fp string) []byte {
	if b, ok := fingerprintStored(fp).([]byte); ok {
		return b
	}
	return []byte(fp)
}
