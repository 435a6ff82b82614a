package transition_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// TestRequestMismatch: an operationId recorded with another requestDigest is
// refused form_identity_conflict / form_transition_request_mismatch without
// touching the recorded operation. A recomputing operationId binds the same
// content, so the ledger row is altered directly to reach this branch. The
// transition-hold probe, which answers a request it claims as still prepared,
// does not skip the check for a recorded operation.
func TestRequestMismatch(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sim.db")
	e := newEnv(t, hostsim.Config{DBPath: db, ConformanceProbes: true})
	e.arm("transition.crash=A,count=1")
	req := e.request()
	if r := e.post(req, nil); !r.dropped {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	e.stop()
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(`UPDATE transition_ops SET request_digest=? WHERE operation_id=?`, "sha256:00", req.OperationID); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	e.start()
	expectErr(t, e.post(req, map[string]string{"Takoform-Conformance-Probe": "transition-hold"}), wire.CodeFormIdentityConflict, "form_transition_request_mismatch")
	expectErr(t, e.post(req, nil), wire.CodeFormIdentityConflict, "form_transition_request_mismatch")
	s := e.state()
	if len(s.Transitions) != 1 || s.Transitions[0].Status != "prepared" || s.Transitions[0].DispatchAttempted || e.dispatches(req.OperationID) != 0 {
		t.Fatalf("the refused request touched the operation: %+v", s.Transitions)
	}
}
