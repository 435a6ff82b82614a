package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// A record's fingerprint reads back as it was written, whatever its text; on
// a file database a lowercase hex SHA-256 is kept as its 32 bytes and any other
// text (uppercase hex among it, which the bytes would read back lowercase) as
// it is.
func TestRecordFingerprintsReadBackExactly(t *testing.T) {
	lower := strings.Repeat("0123456789abcdef", 4)
	fps := []struct {
		fp, typ string
		n       int
	}{
		{lower, "blob", 32},
		{strings.ToUpper(lower), "text", 64},
		{lower[:63], "text", 63},
		{"fp", "text", 2},
	}
	for _, where := range []string{"memory", "file"} {
		t.Run(where, func(t *testing.T) {
			path := ""
			if where == "file" {
				path = filepath.Join(t.TempDir(), "s.db")
			}
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			for i, c := range fps {
				key := "k" + string(rune('a'+i))
				if err := s.Write(ctx, func(q Q) error {
					return PutRecord(q, &Record{Tenant: "t", Principal: "p", Space: "s", Key: key, Fingerprint: c.fp, Status: 200, Body: []byte(`{}`)})
				}); err != nil {
					t.Fatal(err)
				}
				var got *Record
				if err := s.Read(ctx, func(q Q) (err error) { got, err = GetRecord(q, "t", "p", "s", key); return err }); err != nil {
					t.Fatal(err)
				}
				if got == nil || got.Fingerprint != c.fp {
					t.Errorf("fingerprint %q read back as %+v", c.fp, got)
				}
				if where != "file" {
					continue
				}
				var typ string
				var n int
				if err := s.DB().QueryRow(`SELECT typeof(fingerprint), length(CAST(fingerprint AS BLOB)) FROM idempotency WHERE key=?`, key).Scan(&typ, &n); err != nil {
					t.Fatal(err)
				}
				if typ != c.typ || n != c.n {
					t.Errorf("fingerprint %q is stored as %s of %d bytes; want %s of %d", c.fp, typ, n, c.typ, c.n)
				}
			}
		})
	}
}
