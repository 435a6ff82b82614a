package transition_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
)

// exits records transition.exit firings instead of ending the test process.
type exits struct {
	mu    sync.Mutex
	codes []int
}

func (x *exits) exit(code int) { x.mu.Lock(); x.codes = append(x.codes, code); x.mu.Unlock() }
func (x *exits) count() int    { x.mu.Lock(); defer x.mu.Unlock(); return len(x.codes) }

func opStatus(t *testing.T, r *reply) (status string, dispatched bool) {
	t.Helper()
	var doc struct {
		Operation struct {
			OperationID       string `json:"operationId,required"`
			Status            string `json:"status,required"`
			DispatchAttempted bool   `json:"dispatchAttempted,required"`
			RequestDigest     string `json:"requestDigest,required"`
			ReconcilePath     string `json:"reconcilePath,required"`
		} `json:"operation,required"`
	}
	if r.status != 202 || r.header.Get("ETag") != "" {
		t.Fatalf("%s: %d (ETag %q) %s, want a 202 without ETag", r.what, r.status, r.header.Get("ETag"), r.body)
	}
	if err := wire.DecodeStrict(r.body, &doc); err != nil {
		t.Fatalf("%s: the 202 is not exactly {\"operation\": {...}}: %v", r.what, err)
	}
	return doc.Operation.Status, doc.Operation.DispatchAttempted
}

// endState checks the resource against docs/protocol.md#transitions's end state.
func (e *env) endState(committed bool, wantRev string) {
	e.t.Helper()
	s := e.state()
	if len(s.Resources) != 1 {
		e.t.Fatalf("resources: %+v", s.Resources)
	}
	res := s.Resources[0]
	wantVer, wantGen := e.from.Ref.DefinitionVersion, "1"
	if committed {
		wantVer, wantGen = e.to.Ref.DefinitionVersion, "2"
	}
	if res.UID != e.uid || res.DefinitionVersion != wantVer || res.Generation != wantGen || res.Revision != wantRev || res.Claim != nil {
		e.t.Fatalf("end state %+v, want uid %s %s generation %s revision %s and no claim", res, e.uid, wantVer, wantGen, wantRev)
	}
}

// TestCrashMatrix arms each crash point with each way of failing (the request
// aborted; aborted and the Host restarted on its file; the process "exiting"
// and restarted) and checks the client's readbacks and the end state of docs/protocol.md#transitions.
func TestCrashMatrix(t *testing.T) {
	for _, point := range []string{"A", "B", "C", "D", "E"} {
		for _, mode := range []string{"crash", "crash+restart", "exit+restart"} {
			t.Run(point+"/"+mode, func(t *testing.T) {
				ex := &exits{}
				e := newEnv(t, hostsim.Config{DBPath: filepath.Join(t.TempDir(), "sim.db"), AckDeadline: 10 * time.Second, Exit: ex.exit})
				fault := "transition.crash"
				if strings.HasPrefix(mode, "exit") {
					fault = "transition.exit"
				}
				e.arm(fault + "=" + point + ",kind=" + e.from.Ref.Kind + ",count=1")
				req := e.request()
				op := req.OperationID
				if r := e.post(req, nil); !r.dropped {
					t.Fatalf("POST with %s=%s: %d %s, want a dropped connection", fault, point, r.status, r.body)
				}
				if fault == "transition.exit" && ex.count() != 1 {
					t.Fatalf("transition.exit=%s: exit called %d times", point, ex.count())
				}
				if strings.HasSuffix(mode, "restart") {
					e.restart()
				}
				first := e.readback(op) // the client's single readback after the lost answer
				switch point {
				case "A":
					if st, d := opStatus(t, first); st != "prepared" || d {
						t.Fatalf("A: readback %s/%v, want prepared/false", st, d)
					}
					if got := e.read(e.from).header.Get("ETag"); got != `"2"` {
						t.Fatalf("A: the claim must be visible at revision 2, ETag %s", got)
					}
					// The next apply: GET again (prepared/false), then POST the kept request: resume.
					if st, _ := opStatus(t, e.readback(op)); st != "prepared" {
						t.Fatalf("A: second readback %s", st)
					}
					e.verifyCommitted(e.post(req, nil), op, 1)
				case "B":
					if st, d := opStatus(t, first); st != "indeterminate" || !d {
						t.Fatalf("B: readback %s/%v, want indeterminate/true", st, d)
					}
					if s := e.state(); len(s.Transitions) != 1 || !s.Transitions[0].AwaitingEvidence || s.Transitions[0].AckDeadlinePassed {
						t.Fatalf("B: state before the deadline %+v", s.Transitions)
					}
					// A POST of the same request never dispatches: it answers the readback.
					if st, _ := opStatus(t, e.post(req, nil)); st != "indeterminate" {
						t.Fatalf("B: re-POST answered %s", st)
					}
					e.clock.add(10 * time.Second)
					if s := e.state(); !s.Transitions[0].AckDeadlinePassed {
						t.Fatalf("B: state after the deadline %+v", s.Transitions)
					}
					rej := expectErr(t, e.readback(op), wire.CodeFormIdentityConflict, "dispatch_not_observed")
					checkRejectionDetails(t, rej, op, "dispatch_not_observed")
					if s := e.state(); s.Transitions[0].AwaitingEvidence || s.Transitions[0].Status != "rejected" {
						t.Fatalf("B: state after the rejection %+v", s.Transitions)
					}
				default:
					e.verifyCommitted(first, op, 1)
				}
				committed := point != "B"
				rev := "3" // A/C/D/E: claim +1, advance +1; B: claim +1, release +1
				e.endState(committed, rev)
				want := int64(1)
				if !committed {
					want = 0
				}
				if n := e.dispatches(op); n != want {
					t.Fatalf("dispatch counter of %s is %d, want %d", op, n, want)
				}
				// Forever the same answer, after another restart too.
				again := e.readback(op)
				e.restart()
				for _, r := range []*reply{e.readback(op), e.post(req, nil)} {
					if r.status != again.status || (committed && !bytes.Equal(r.body, again.body)) {
						t.Fatalf("%s: %d %s, want the stored %d %s", r.what, r.status, r.body, again.status, again.body)
					}
				}
				e.endState(committed, rev)
				if n := e.dispatches(op); n != want {
					t.Fatalf("after replays the dispatch counter is %d", n)
				}
				if !committed { // a rejection is never a dead end
					e.rev = 3
					next := e.request()
					if next.OperationID == op {
						t.Fatal("the retry after a rejection has the same operationId")
					}
					e.verifyCommitted(e.post(next, nil), next.OperationID, 1)
					e.endState(true, "5")
				}
			})
		}
	}
}

func checkRejectionDetails(t *testing.T, got *wire.Error, op, code string) {
	t.Helper()
	var d map[string]string
	if err := json.Unmarshal(got.Details, &d); err != nil || d["operationId"] != op || d["status"] != "rejected" ||
		d["failureCode"] != code || !wire.ValidDigest(d["requestDigest"]) || got.Retryable {
		t.Fatalf("rejection details %s (retryable %v), want operationId %s status rejected failureCode %s", got.Details, got.Retryable, op, code)
	}
}

// TestRejection: the backend rejects (fault value or probe); the rejection is
// stored, the claim released (R+2), ref/spec/generation untouched, the
// resource operable, and the next attempt has a new operationId.
func TestRejection(t *testing.T) {
	for _, how := range []string{"fault", "fault-with-code", "probe"} {
		t.Run(how, func(t *testing.T) {
			e := newEnv(t, hostsim.Config{ConformanceProbes: true})
			code, h := "backend_rejected", map[string]string{}
			switch how {
			case "fault":
				e.arm("transition.reject,count=1")
			case "fault-with-code":
				code = "quota_exceeded"
				e.arm("transition.reject=" + code + ",resource=" + e.name + ",count=1")
			case "probe":
				h["Takoform-Conformance-Probe"] = "transition-reject"
			}
			req := e.request()
			got := expectErr(t, e.post(req, h), wire.CodeFormIdentityConflict, code)
			checkRejectionDetails(t, got, req.OperationID, code)
			for _, r := range []*reply{e.readback(req.OperationID), e.post(req, nil)} {
				again := expectErr(t, r, wire.CodeFormIdentityConflict, code)
				if again.Message != got.Message || string(again.Details) != string(got.Details) || again.RequestID == got.RequestID {
					t.Fatalf("%s: %+v, want the stored rejection with a fresh requestId", r.what, again)
				}
			}
			e.endState(false, "3")
			if n := e.dispatches(req.OperationID); n != 1 {
				t.Fatalf("the rejecting backend call is counted once; got %d", n)
			}
			// Operable: an ordinary update on the old ref.
			spec := changedSpecOf(t, e.from, e.spec)
			if upd := e.apply(e.from, spec, 1); upd.status != 200 {
				t.Fatalf("update after rejection: %d %s", upd.status, upd.body)
			}
			e.spec = spec
			e.adopt(e.read(e.from))
			if e.gen != 2 {
				t.Fatalf("update after rejection: generation %d", e.gen)
			}
			next := e.request()
			e.verifyCommitted(e.post(next, nil), next.OperationID, e.gen)
		})
	}
}

// TestReadbackTable covers the rows of docs/protocol.md#transitions not driven by the
// crash matrix: unknown, foreign-tenant and other-resource operations, and a
// backend rejection found by the readback.
func TestReadbackTable(t *testing.T) {
	e := newEnv(t, hostsim.Config{})
	req := e.request()
	op := req.OperationID
	expectErr(t, e.readback(op), wire.CodeResourceNotFound, "form_transition_operation_not_found")
	expectErr(t, e.readback("op_123"), wire.CodeResourceNotFound, "form_transition_operation_not_found")
	e.arm("transition.reject=capacity_exhausted,count=1")
	e.arm("transition.crash=C,count=1")
	if r := e.post(req, nil); !r.dropped {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	// Another tenant, another resource name, another space: never found.
	other := e.do("GET", e.resPath()+"/form-transitions/"+op+spaceQ(e.space), map[string]string{"Authorization": "Bearer sim-other-tenant"}, nil)
	expectErr(t, other, wire.CodeResourceNotFound, "form_transition_operation_not_found")
	name := e.name
	e.name = "another"
	expectErr(t, e.readback(op), wire.CodeResourceNotFound, "form_transition_operation_not_found")
	e.name, e.space = name, "staging"
	expectErr(t, e.readback(op), wire.CodeResourceNotFound, "form_transition_operation_not_found")
	e.space = "prod"
	// prepared, dispatched, backend ledger has a rejection → record it, release, 409.
	got := expectErr(t, e.readback(op), wire.CodeFormIdentityConflict, "capacity_exhausted")
	checkRejectionDetails(t, got, op, "capacity_exhausted")
	e.endState(false, "3")
	if r := e.read(e.from); strings.Contains(string(r.body), "Reconciling") {
		t.Fatalf("released resource still shows Reconciling: %s", r.body)
	}
}

// TestAckDeadlineZero: with AckDeadline 0 the absence of backend evidence is
// proof at once (Go tests may use 0, docs/protocol.md#transitions).
func TestAckDeadlineZero(t *testing.T) {
	e := newEnv(t, hostsim.Config{})
	e.arm("transition.crash=B,count=1")
	req := e.request()
	if r := e.post(req, nil); !r.dropped {
		t.Fatalf("POST: %d %s", r.status, r.body)
	}
	expectErr(t, e.readback(req.OperationID), wire.CodeFormIdentityConflict, "dispatch_not_observed")
	e.endState(false, "3")
	if n := e.dispatches(req.OperationID); n != 0 {
		t.Fatalf("dispatch %d", n)
	}
}
