package store

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A --db file of schema 4 migrates: its records (plain bodies, hex
// fingerprints) replay as they were, and new ones are kept compact.
func TestSchema4FileMigrates(t *testing.T) { // prepares too: their text digests become bytes
	path, raw := schema4File(t,
		`INSERT INTO idempotency (tenant, principal, space, key, fingerprint, status, etag, body, bound_uid, bound_op, created_at)
		 VALUES ('t', 'p', 's', 'k', '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 201, '"1"', '{"a":1}', '', '', 5)`,
		`INSERT INTO prepares (digest, tenant, minted_at) VALUES ('sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 't', 77)`)
	raw.Close()
	s, err := Open(path)
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
	if s.m.Len().Dicts != 0 {
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

// A migration that fails part way leaves the file as it was: a schema 4 file
// holding a prepare whose digest does not decode fails its second step, and
// the first (the column it adds) is not kept, so that once the row is mended
// the file migrates. Step by step, the column stayed and every later start
// failed adding it again.
func TestAFailedMigrationLeavesTheFileAsItWas(t *testing.T) {
	bad := "sha256:" + strings.Repeat("z", 64) // 71 characters, no hex: unhex gives NULL
	path, raw := schema4File(t, `INSERT INTO prepares (digest, tenant, minted_at) VALUES ('`+bad+`', 't', 77)`)
	defer raw.Close()
	state := func() (version int, dict, dictionaries bool) {
		t.Helper()
		if err := raw.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := raw.QueryRow(`SELECT count(*) FROM pragma_table_info('idempotency') WHERE name = 'dict'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		var m int
		if err := raw.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'dictionaries'`).Scan(&m); err != nil {
			t.Fatal(err)
		}
		return version, n > 0, m > 0
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "migrate database") || !strings.Contains(err.Error(), "left as it was") {
		t.Fatalf("a schema 4 file with an undecodable prepare digest opened: %v; want the migration refused", err)
	}
	if v, dict, dictionaries := state(); v != 4 || dict || dictionaries {
		t.Fatalf("after the failed migration: schema %d, idempotency.dict %v, dictionaries %v; want the schema 4 file as it was", v, dict, dictionaries)
	}
	if _, err := raw.Exec(`DELETE FROM prepares WHERE digest = ?`, bad); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("the mended schema 4 file does not open: %v", err)
	}
	s.Close()
	if v, dict, dictionaries := state(); v != schemaVersion || !dict || !dictionaries {
		t.Fatalf("after the migration: schema %d, idempotency.dict %v, dictionaries %v; want schema %d with both", v, dict, dictionaries, schemaVersion)
	}
}

// schema4File makes a --db file as hostsim wrote it at schema 4 (no dictionaries,
// no idempotency.dict), runs then the statements given, and returns the file
// and a connection to it outside any Store.
func schema4File(t *testing.T, then ...string) (string, *sql.DB) {
	t.Helper()
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
	for _, stmt := range append([]string{`ALTER TABLE idempotency DROP COLUMN dict`, `DROP TABLE dictionaries`, `PRAGMA user_version = 4`}, then...) {
		if _, err := raw.Exec(stmt); err != nil {
			raw.Close()
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return path, raw
}
