package rules

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

func files(spec string) []MigrationFile {
	var out []MigrationFile
	for _, f := range strings.Fields(spec) {
		path, digest, _ := strings.Cut(f, "@")
		out = append(out, MigrationFile{Path: path, Digest: "sha256:" + strings.Repeat(digest, 64)})
	}
	return out
}

func TestLedgerPrefix(t *testing.T) {
	for _, c := range []struct {
		ledger, set string
		applied     int
		refused     string // a fragment of the refusal; "" = accepted
	}{
		{"", "a@1 b@2", 0, ""},
		{"a@1", "a@1 b@2 c@3", 1, ""},
		{"a@1 b@2", "a@1 b@2", 2, ""},
		{"a@1 b@2", "a@1 b@9 c@3", 0, `applied file 2 "b" (sha256:2222`},
		{"a@1 b@2", "a@1 b@9 c@3", 0, "listed as file 2 of the set with digest sha256:9999"},
		{"a@1 b@2", "b@2 a@1", 0, "is file 2 of the set instead (moved)"},
		{"a@1 b@2", "a@1 c@3", 0, `absent from the set, whose file 2 is "c"`},
		{"a@1 b@2 c@3", "a@1 b@2", 0, "absent from the set, which lists only 2 file(s)"},
		{"a@1", "x@1", 0, `whose file 1 is "x"`}, // same digest, another path: another file
	} {
		n, r := LedgerPrefix("/migrationSet", files(c.ledger), files(c.set), `database "db"`, `set "s"`)
		switch {
		case c.refused == "" && r != nil:
			t.Errorf("%q over %q refused: %v", c.ledger, c.set, r)
		case c.refused == "" && n != c.applied:
			t.Errorf("%q over %q: %d applied, want %d", c.ledger, c.set, n, c.applied)
		case c.refused != "" && r == nil:
			t.Errorf("%q over %q accepted (%d applied)", c.ledger, c.set, n)
		case c.refused != "" && (r.Code != wire.CodeMigrationRequired || r.Pointer != "/migrationSet" ||
			!strings.Contains(r.Message, c.refused) || !strings.Contains(r.Message, "Nothing was run")):
			t.Errorf("%q over %q: %s at %s, want migration_required at /migrationSet naming %q", c.ledger, c.set, r, r.Pointer, c.refused)
		}
	}
}

func TestLedgerReadiness(t *testing.T) {
	for _, c := range []struct {
		ledger, set        string
		ready              bool
		reason, hostReason string
		says               string
	}{
		{"a@1 b@2", "a@1 b@2", true, "Available", "", ""},
		{"", "", true, "Available", "", ""},
		{"a@1", "a@1 b@2 c@3", false, "SpecDrift", "ledger-behind-set", `applied 1 of the 3 files of set "s"; not applied: "b"`},
		{"a@1 b@2 c@3", "a@1", false, "ExternalChange", "ledger-ahead-of-set", `and 2 more, which another application applied: "b"`},
		{"a@1 b@2", "a@1 b@3", false, "ExternalChange", "ledger-diverged", `at file 2: applied "b" (sha256:2222`},
	} {
		r := LedgerReadiness(files(c.ledger), files(c.set), `database "db"`, `set "s"`)
		if r.Ready != c.ready || r.Reason != c.reason || r.HostReason != c.hostReason || !strings.Contains(r.Message, c.says) {
			t.Errorf("%q against %q: %+v, want ready %v %s %s saying %q", c.ledger, c.set, r, c.ready, c.reason, c.hostReason, c.says)
		}
		if !wire.KnownConditionReason(r.Reason) {
			t.Errorf("reason %q is outside the closed vocabulary", r.Reason)
		}
	}
	many := LedgerReadiness(nil, files("a@1 b@2 c@3 d@4 e@5 f@6 g@7"), "db", "s")
	if !strings.Contains(many.Message, "and 2 more") || strings.Contains(many.Message, `"f"`) {
		t.Errorf("a long list is not cut at 5: %s", many.Message)
	}
}
