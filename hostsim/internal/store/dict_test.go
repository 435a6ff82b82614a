package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"
)

// Any body encoded against any dictionary decodes back to itself.
func TestDictionaryCodecRoundTrips(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	rep := func(name, uid, ltt string) []byte {
		return []byte(`{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","form":{"formRef":{"apiVersion":"edge.forms.takokit.dev/v1alpha1","kind":"EdgeKVNamespace","definitionVersion":"0.1.0","schemaDigest":"sha256:9d43b1aab140d6127e905be4a4d40e29840bc5bc2303b98d671c08b4108d96dd"},"packageDigest":"sha256:17c6b0c7341db9a6fa8a9a471d16405939c180837a884e1f558e1fe4d8bca9ab"},"metadata":{"name":"` +
			name + `","space":"bench","uid":"` + uid + `","generation":"1","revision":"1"},"spec":{},"status":{"observedGeneration":"1","conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"` + ltt + `"}]}}`)
	}
	d := newDict(1, rep("r-1", "u-d32f94baa3d0a5364a1a", "2026-12-01T16:39:47Z"))
	same := rep("r-4711", "u-77aa94baa3d0a5364bbb", "2026-12-01T17:02:13Z")
	if enc := d.encode(same); len(enc) > 90 {
		t.Errorf("a representation of the dictionary's shape keeps %d of %d bytes", len(enc), len(same))
	}
	bodies := [][]byte{nil, {}, []byte("x"), same, d.body, []byte(`{"apiVersion":"other"}`)}
	for range 500 {
		b := make([]byte, rnd.Intn(900))
		for i := range b {
			if rnd.Intn(3) == 0 {
				b[i] = byte(rnd.Intn(256))
			} else {
				b[i] = d.body[rnd.Intn(len(d.body))]
			}
		}
		if rnd.Intn(2) == 0 && len(b) > 50 { // long stretches of the dictionary
			at := rnd.Intn(len(d.body) - 40)
			copy(b[rnd.Intn(len(b)-40):], d.body[at:at+40])
		}
		bodies = append(bodies, b)
	}
	for _, b := range bodies {
		got, err := d.decode(d.encode(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("%q round-trips to %q (%v)", b, got, err)
		}
	}
	for _, bad := range [][]byte{{0x03}, {0x05, 0xff, 0x7f}, {0x81}, {0x07, 0xff, 0xff, 0x03}} {
		if _, err := d.decode(bad); err == nil {
			t.Errorf("corrupt encoding %x decoded", bad)
		}
	}
}

// A --db file of schema 4 migrates: its records (plain bodies, hex
// fingerprints) replay as they were, and new ones are kept compact.
func TestSchema4FileMigrates(t *testing.T) { // prepares too: their text digests become bytes
	path := filepath.Join(t.TempDir(), "v4.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{`ALTER TABLE idempotency DROP COLUMN dict`, `DROP TABLE dictionaries`, `PRAGMA user_version = 4`,
		`INSERT INTO idempotency (tenant, principal, space, key, fingerprint, status, etag, body, bound_uid, bound_op, created_at)
		 VALUES ('t', 'p', 's', 'k', '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 201, '"1"', '{"a":1}', '', '', 5)`,
		`INSERT INTO prepares (digest, tenant, minted_at) VALUES ('sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 't', 77)`} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	raw.Close()
	s, err = Open(path)
	if err != nil {
		t.Fatalf("a schema 4 file does not open: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	_ = s.Read(ctx, func(q Q) error {
		r, err := GetRecord(q, "t", "p", "s", "k")
		if err != nil || r == nil || string(r.Body) != `{"a":1}` || r.Fingerprint != "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" {
			t.Fatalf("the migrated record reads %+v (%v)", r, err)
		}
		return nil
	})
	_ = s.Read(ctx, func(q Q) error {
		for _, qq := range []Q{q, rawQ{q}} {
			at, ok, err := PrepareMintedAt(qq, "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "t")
			if err != nil || !ok || at != 77 {
				t.Fatalf("the migrated prepare reads %d %v (%v)", at, ok, err)
			}
		}
		return nil
	})
	body := []byte(`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","uid":"u-1"}}`)
	for i := range 3 {
		if err := s.Write(ctx, func(q Q) error {
			return PutRecord(q, &Record{Tenant: "t", Principal: "p", Space: "s", Key: fmt.Sprint("n", i), Body: body, Fingerprint: "fp"})
		}); err != nil {
			t.Fatal(err)
		}
	}
	var stored []byte
	var dict int64
	if err := s.DB().QueryRow(`SELECT body, dict FROM idempotency WHERE key='n2'`).Scan(&stored, &dict); err != nil || dict == 0 || len(stored) >= len(body) {
		t.Fatalf("a new record is stored as %d bytes under dictionary %d (%v)", len(stored), dict, err)
	}
}

// A dictionary made by a transaction that rolled back is not kept.
func TestRolledBackDictionaryIsForgotten(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	body := []byte(`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","uid":"u-1"}}`)
	_ = s.Write(ctx, func(q Q) error {
		if err := PutRecord(q, &Record{Tenant: "t", Principal: "p", Space: "s", Key: "a", Body: body}); err != nil {
			return err
		}
		return errRollback
	})
	if len(s.m.dicts.byID) != 0 {
		t.Fatal("the mirror kept the dictionary of a rolled-back transaction")
	}
	if err := s.Write(ctx, func(q Q) error {
		return PutRecord(q, &Record{Tenant: "t", Principal: "p", Space: "s", Key: "a", Body: body})
	}); err != nil {
		t.Fatal(err)
	}
	_ = s.Read(ctx, func(q Q) error {
		r, err := GetRecord(q, "t", "p", "s", "a")
		if err != nil || r == nil || !bytes.Equal(r.Body, body) {
			t.Fatalf("record %+v (%v)", r, err)
		}
		return nil
	})
}
