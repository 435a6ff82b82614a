package transition

// Each step of the ledger (docs/protocol.md#transitions) re-reads its row in
// its own write transaction and does its write at most once: a concurrent
// request, or one that resumes after a crash, that asks for a step already
// taken (or not yet due) writes nothing. Racing two HTTP requests cannot pick
// which one reaches a step second, so these tests ask the steps directly, over
// the real store, related checks and renderer the Host wires together.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/journal"
	"github.com/takokit/takokit/hostsim/internal/profile"
	"github.com/takokit/takokit/hostsim/internal/related"
	"github.com/takokit/takokit/hostsim/internal/render"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// world is a transition Service over an in-memory store, with resources
// written as an accepted create leaves them.
type world struct {
	t   *testing.T
	s   *Service
	st  *store.Store
	j   *journal.Journal
	cat *catalog.Catalog
	now time.Time
}

const tenant, space = "tenant-a", "prod"

func newWorld(t *testing.T) *world {
	t.Helper()
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Load("full")
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, st: st, cat: cat, now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	w.restart(p)
	w.j = journal.New(st, w.clock)
	t.Cleanup(func() { w.j.Close(); st.Close() })
	return w
}

// restart gives the world a Service over its store serving profile p, as a
// host restarted on its database.
func (w *world) restart(p *profile.Profile) {
	w.t.Helper()
	host := profile.Resolve(p, w.cat)
	g := related.New(host)
	s, err := New(Options{Store: w.st, Host: host, Renderer: &render.Renderer{Host: host, G: g, Now: w.clock}, Relations: g,
		Now: w.clock, AckDeadline: time.Hour})
	if err != nil {
		w.t.Fatal(err)
	}
	w.s = s
}

// profile parses a profile given as JSON.
func (w *world) profile(doc string) *profile.Profile {
	w.t.Helper()
	p, err := profile.Parse("test", []byte(doc))
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// marked is the declared transition with that marker.
func (w *world) marked(marker string) (*catalog.Transition, *catalog.Form, *catalog.Form) {
	w.t.Helper()
	for _, tr := range w.cat.Transitions() {
		if tr.Marker == marker {
			from, _ := w.cat.Form(tr.From)
			to, _ := w.cat.Form(tr.To)
			return tr, from, to
		}
	}
	w.t.Fatalf("no transition %s", marker)
	return nil, nil, nil
}

func (w *world) write(fn func(q store.Q) error) {
	w.t.Helper()
	if err := w.st.Write(context.Background(), fn); err != nil {
		w.t.Fatal(err)
	}
}

// insert stores a resource of f named name with spec, pinned as an apply pins it.
func (w *world) insert(f *catalog.Form, name string, spec map[string]any) *store.Resource {
	w.t.Helper()
	g, e := decide.GateOrRefuse(f, spec)
	if e != nil {
		w.t.Fatalf("%s %s: %v", f.Ref.Kind, name, e)
	}
	m := &decide.Mutation{Tenant: tenant, Space: space, Ref: f.Ref, Name: name}
	r := decide.NextCreate(m, g, "u-"+name, w.now.Format(time.RFC3339))
	w.write(func(q store.Q) error {
		pins, e, err := w.s.Relations.Resolve(q, f, tenant, space, g.Spec, nil)
		if err != nil {
			return err
		} else if e != nil {
			return e
		}
		r.Pins = int64(len(pins))
		if err := store.InsertResource(q, r); err != nil {
			return err
		}
		return store.ReplacePins(q, r.UID, pins, false)
	})
	return r
}

// fixture is f's first fixture as a spec.
func fixture(t *testing.T, f *catalog.Form) map[string]any {
	var m map[string]any
	if len(f.Fixtures) == 0 || json.Unmarshal(f.Fixtures[0].Desired, &m) != nil {
		t.Fatalf("%s has no fixture", f.Ref)
	}
	return m
}

// op is a validated request moving r from from to to with spec, and its Call.
func (w *world) op(tr *catalog.Transition, from, to *catalog.Form, r *store.Resource, spec map[string]any) (*Call, *parsed) {
	w.t.Helper()
	req, err := NewRequest(tr, from, to, space, r.Name, r.UID, r.Generation, r.Revision, spec)
	if err != nil {
		w.t.Fatal(err)
	}
	body, _ := json.Marshal(req)
	h := http.Header{}
	h.Set(wire.HeaderIdempotencyKey, req.OperationID)
	h.Set(wire.HeaderExpectedGeneration, req.Expected.Generation)
	h.Set(wire.HeaderIfMatch, `"`+req.Expected.Revision+`"`)
	c := &Call{Ctx: context.Background(), Tenant: tenant, Principal: "alice", Group: from.Ref.APIVersion, Kind: from.Ref.Kind,
		Name: r.Name, Method: "POST", Header: h, RawQuery: "space=" + space, Body: body}
	p, e := parse(w.s, c)
	if e != nil {
		w.t.Fatalf("parse: %v", e)
	}
	return c, p
}

// row is the ledger row of op, as a request reads it.
func (w *world) row(op string) *opRow {
	w.t.Helper()
	r, err := w.s.op(context.Background(), tenant, op)
	if err != nil || r == nil {
		w.t.Fatalf("ledger row %s: %v %v", op, r, err)
	}
	return r
}

func (w *world) resource(uid string) *store.Resource {
	w.t.Helper()
	var r *store.Resource
	w.write(func(q store.Q) error {
		var err error
		r, err = store.GetResourceByUID(q, uid)
		return err
	})
	return r
}

// steps counts the journaled steps of op, by step.
func (w *world) steps(op string) map[string]int {
	w.t.Helper()
	events, _ := w.j.Since(context.Background(), 0, 1000)
	n := map[string]int{}
	for _, e := range events {
		var d struct{ Step, OperationID string }
		if e.Type == "transition" && json.Unmarshal(e.Data, &d) == nil && d.OperationID == op {
			n[d.Step]++
		}
	}
	return n
}

func (w *world) dispatches(op string) int64 {
	w.t.Helper()
	var n int64
	w.write(func(q store.Q) error {
		c, err := store.CounterValues(q)
		n = c["dispatch:"+op]
		return err
	})
	return n
}

// dispatched marks the row dispatched, as the dispatch fence does.
func (w *world) dispatched(row *opRow) *opRow {
	w.t.Helper()
	w.write(func(q store.Q) error {
		_, err := setDispatched(q, row.Tenant, row.OperationID, w.now.UnixNano())
		return err
	})
	return w.row(row.OperationID)
}

func (w *world) queue(name string) (*store.Resource, *Call, *parsed) {
	tr, from, to := w.marked("at-least-once-queue-0.1-to-0.2")
	spec := fixture(w.t, from)
	r := w.insert(from, name, spec)
	c, p := w.op(tr, from, to, r, spec)
	return r, c, p
}

func must(t *testing.T, e *wireErr, err error) {
	t.Helper()
	if err != nil || e != nil {
		t.Fatalf("step failed: %v %v", e, err)
	}
}

type wireErr = wire.Error

// A step asked again after it was taken writes nothing, and a step asked
// before it is due writes nothing either.
func TestEachStepWritesOnce(t *testing.T) {
	w := newWorld(t)
	res, c, p := w.queue("orders")
	row, cr, e, err := w.s.claim(c, p)
	must(t, e, err)
	if cr != nil || row.Status != statusPrepared {
		t.Fatalf("claim: %+v %+v", row, cr)
	}
	again, _, e, err := w.s.claim(c, p) // a concurrent identical POST reaching the claim second
	must(t, e, err)
	if again.OperationID != row.OperationID || w.resource(res.UID).Revision != 2 || w.steps(row.OperationID)["A:claim"] != 1 {
		t.Fatalf("a second claim: %+v, revision %d, steps %v; want the first claim's row, nothing written", again,
			w.resource(res.UID).Revision, w.steps(row.OperationID))
	}
	op := row.OperationID

	// Not yet due: no proof without evidence, no advance without a proof.
	undispatched := row
	row = w.dispatched(row)
	if cr, err := w.s.prove(c, row); err != nil || cr != nil || w.row(op).Status != statusPrepared || w.row(op).Proof != nil {
		t.Fatalf("prove without backend evidence: %v %v, row %+v", cr, err, w.row(op))
	}
	if cr, err := w.s.advance(c, row); err != nil || cr != nil || w.resource(res.UID).DefVersion != res.DefVersion {
		t.Fatalf("advance without a proof: %v %v, resource at %s", cr, err, w.resource(res.UID).DefVersion)
	}
	if cr, err := w.s.backend(c, undispatched); err != nil || cr != nil {
		t.Fatalf("backend: %v %v", cr, err)
	}
	if cr, err := w.s.backend(c, row); err != nil || cr != nil || w.dispatches(op) != 1 {
		t.Fatalf("the backend asked again: %v %v, %d calls", cr, err, w.dispatches(op))
	}
	// The deadline rule never rejects an operation whose evidence arrived.
	if err := w.s.reject(c, row, "dispatch_not_observed", true); err != nil || w.row(op).Status != statusPrepared {
		t.Fatalf("dispatch_not_observed after the evidence: %v, row %s", err, w.row(op).Status)
	}

	if cr, err := w.s.prove(c, row); err != nil || cr != nil || w.row(op).Status != statusProven {
		t.Fatalf("prove: %v %v, row %s", cr, err, w.row(op).Status)
	}
	proven := w.row(op)
	if cr, err := w.s.prove(c, row); err != nil || cr != nil {
		t.Fatalf("prove again: %v %v", cr, err)
	}
	if cr, err := w.s.advance(c, proven); err != nil || cr != nil {
		t.Fatalf("advance: %v %v", cr, err)
	}
	advanced := w.resource(res.UID)
	if cr, err := w.s.advance(c, w.row(op)); err != nil || cr != nil || w.resource(res.UID).Revision != advanced.Revision {
		t.Fatalf("advance again: %v %v, revision %d after %d", cr, err, w.resource(res.UID).Revision, advanced.Revision)
	}
	if err := w.s.terminal(c, w.row(op)); err != nil || w.row(op).Status != statusCommitted {
		t.Fatalf("terminal: %v, row %s", err, w.row(op).Status)
	}
	if err := w.s.terminal(c, proven); err != nil {
		t.Fatalf("terminal again: %v", err)
	}
	if err := w.s.reject(c, row, "backend_rejected", false); err != nil || w.row(op).Status != statusCommitted {
		t.Fatalf("a rejection of a committed operation: %v, row %s", err, w.row(op).Status)
	}
	// A dispatch that loses the fence answers the stored receipt.
	if a := w.s.dispatch(c, undispatched); a.err != nil || a.status != 200 || string(a.body) != string(w.row(op).Receipt) {
		t.Fatalf("a dispatch after the commit: %d %v %s", a.status, a.err, a.body)
	}

	want := map[string]int{"A:claim": 1, "B:dispatch-fence": 0, "C:backend": 1, "D:proof": 1, "E:advance": 1, "committed": 1}
	got := w.steps(op)
	for step, n := range want {
		if got[step] != n {
			t.Errorf("step %s journaled %d times, want %d (all: %v)", step, got[step], n, got)
		}
	}
	if w.dispatches(op) != 1 {
		t.Fatalf("the backend was called %d times", w.dispatches(op))
	}
	if r := w.resource(res.UID); r.Generation != 2 || r.Revision != advanced.Revision || r.ClaimOp != "" || r.DefVersion == res.DefVersion {
		t.Fatalf("end state %+v", r)
	}
}

// A rejection is recorded once and releases the claim once; the backend is
// never called for an operation the deadline rule already rejected.
func TestRejectionWritesOnceAndFencesTheBackend(t *testing.T) {
	w := newWorld(t)
	res, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	row = w.dispatched(row)
	if err := w.s.reject(c, row, "dispatch_not_observed", true); err != nil {
		t.Fatal(err)
	}
	op := row.OperationID
	if err := w.s.reject(c, row, "dispatch_not_observed", true); err != nil {
		t.Fatal(err)
	}
	if cr, err := w.s.backend(c, row); err != nil || cr != nil || w.dispatches(op) != 0 {
		t.Fatalf("the backend after a dispatch_not_observed rejection: %v %v, %d calls", cr, err, w.dispatches(op))
	}
	r := w.resource(res.UID)
	if got := w.row(op); got.Status != statusRejected || got.FailureCode != "dispatch_not_observed" || r.Revision != 3 || r.ClaimOp != "" || r.Generation != 1 {
		t.Fatalf("after the rejection: row %s/%s, resource generation %d revision %d claim %q", got.Status, got.FailureCode,
			r.Generation, r.Revision, r.ClaimOp)
	}
	if n := w.steps(op)["rejected"]; n != 1 {
		t.Fatalf("rejected journaled %d times", n)
	}
}

// What a reset (or any removal) between two steps leaves: the steps after it
// fail or record without the resource, and never act on nothing.
func TestStepsAfterTheResourceIsGone(t *testing.T) {
	w := newWorld(t)
	res, c, p := w.queue("orders")
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	row = w.dispatched(row)
	gone := func() {
		w.write(func(q store.Q) error { return store.DeleteResource(q, w.resourceIn(q, res.UID)) })
	}
	unknown := &opRow{Tenant: tenant, OperationID: "formtx_" + strings.Repeat("0", 64)}
	if cr, err := w.s.backend(c, unknown); err != nil || cr != nil {
		t.Fatalf("the backend for an operation the ledger no longer holds: %v %v", cr, err)
	}
	if _, err := w.s.backend(c, row); err != nil {
		t.Fatal(err)
	}
	if _, err := w.s.prove(c, row); err != nil {
		t.Fatal(err)
	}
	gone()
	if _, err := w.s.advance(c, w.row(row.OperationID)); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("advance without the resource: %v", err)
	}

	res, c, p = w.queue("jobs")
	row, _, e, err = w.s.claim(c, p)
	must(t, e, err)
	row = w.dispatched(row)
	gone()
	if _, err := w.s.backend(c, row); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("the backend without the resource: %v", err)
	}
	if err := w.s.reject(c, row, "dispatch_not_observed", true); err != nil || w.row(row.OperationID).Status != statusRejected {
		t.Fatalf("a rejection without the resource: %v", err)
	}
}

func (w *world) resourceIn(q store.Q, uid string) *store.Resource {
	r, err := store.GetResourceByUID(q, uid)
	if err != nil || r == nil {
		w.t.Fatalf("resource %s: %v %v", uid, r, err)
	}
	return r
}

// The proof is recorded only from backend evidence that matches the
// operation: the spec it observed and the native identity.
func TestProofNeedsMatchingEvidence(t *testing.T) {
	for _, column := range []string{"observed_spec_digest", "native_identity_digest"} {
		t.Run(column, func(t *testing.T) {
			w := newWorld(t)
			_, c, p := w.queue("orders")
			row, _, e, err := w.s.claim(c, p)
			must(t, e, err)
			row = w.dispatched(row)
			if _, err := w.s.backend(c, row); err != nil {
				t.Fatal(err)
			}
			w.write(func(q store.Q) error {
				_, err := q.Exec(`UPDATE backend_ledger SET `+column+`=? WHERE operation_id=?`, "sha256:"+strings.Repeat("e", 64), row.OperationID)
				return err
			})
			if _, err := w.s.prove(c, row); err == nil || !strings.Contains(err.Error(), "does not match the operation") {
				t.Fatalf("a proof from evidence with another %s: %v", column, err)
			}
			if got := w.row(row.OperationID); got.Status != statusPrepared || got.Proof != nil {
				t.Fatalf("the mismatching evidence was proven: %s", got.Status)
			}
		})
	}
}

// The advance re-pins the references of the spec it moves to: a transition
// that points a reference at another target releases the old one and pins
// the new one.
func TestAdvanceRepinsTheMovedReferences(t *testing.T) {
	w := newWorld(t)
	m := w.movedEndpoint("other-worker", true)
	old, other, res := m.old, m.other, m.res
	c, p := m.c, m.p
	row, _, e, err := w.s.claim(c, p)
	must(t, e, err)
	if a := w.s.dispatch(c, row); a.err != nil || a.status != 200 {
		t.Fatalf("dispatch: %d %v %s", a.status, a.err, a.body)
	}
	pins := w.pins(res.UID)
	if len(pins) != 1 || pins[0].TargetUID != other.UID || pins[0].TargetName != "other-worker" {
		t.Fatalf("pins after the transition %+v, want one on %s (uid %s), none on %s", pins, "other-worker", other.UID, old.Name)
	}
	if r := w.resource(res.UID); r.Pins != 1 {
		t.Fatalf("the resource counts %d pins", r.Pins)
	}
}

// clock reads the world's time.
func (w *world) clock() time.Time { return w.now }

// An advance whose new references no longer resolve still advances: the
// backend already committed the change (point D proved it), so the resource
// moves to toForm and keeps the pins it had, and the journal says why
// ("E:repin", kept pins). Here the transition points the endpoint at
// other-worker, the POST stops after the proof, and other-worker is deleted
// before the readback finishes the advance.
func TestAdvanceKeepsThePinsWhenTheNewReferencesAreGone(t *testing.T) {
	w := newWorld(t)
	m := w.movedEndpoint("other-worker", true)
	old, other, res, to := m.old, m.other, m.res, m.to
	c := m.c
	row := w.stoppedAfterProof(m)
	op := row.OperationID
	w.write(func(q store.Q) error { return store.DeleteResource(q, w.resourceIn(q, other.UID)) })

	c.Faults = nil
	a := w.s.resolve(c, row.Tenant, op, true)
	if a.err != nil || a.status != 200 {
		t.Fatalf("the readback after the proof: %d %v %s; want the committed receipt", a.status, a.err, a.body)
	}
	r := w.resource(res.UID)
	if r.DefVersion != to.Ref.DefinitionVersion || r.Generation != res.Generation+1 || r.ClaimOp != "" {
		t.Fatalf("the resource after the advance: %s at generation %d, claim %q; want %s at %d, unclaimed",
			r.DefVersion, r.Generation, r.ClaimOp, to.Ref.DefinitionVersion, res.Generation+1)
	}
	pins := w.pins(res.UID)
	if len(pins) != 1 || pins[0].TargetUID != old.UID || r.Pins != 1 {
		t.Fatalf("pins after an advance that could not re-pin: %+v (counted %d); want the one on %s kept", pins, r.Pins, old.Name)
	}
	if kept := w.repins(res.UID); len(kept) != 1 || kept[0]["kept"] != "pins" || !strings.Contains(fmt.Sprint(kept[0]["why"]), "other-worker") {
		t.Fatalf("the journal's E:repin entries %v; want one saying the pins were kept because other-worker is gone", kept)
	}
}

// A host restarted on its database with a profile that no longer installs
// toForm still finishes an advance the backend committed (point D proved
// it): the resource moves to toForm, keeps the pins it had (the new
// references cannot be resolved under a Form the host does not install) and
// the journal says why. Here the restarted host's profile excludes
// WorkerEndpoint 0.2.0.
func TestAdvanceKeepsThePinsWhenToFormIsNoLongerInstalled(t *testing.T) {
	w := newWorld(t)
	m := w.movedEndpoint("other-worker", true)
	row := w.stoppedAfterProof(m)

	p := w.profile(`{"name": "no-endpoint-0.2", "forms": {"exclude": ["WorkerEndpoint@` + m.to.Ref.DefinitionVersion + `"]}}`)
	w.restart(p)
	if _, ok := w.s.Host.Form(m.to.Ref); ok {
		t.Fatalf("the restarted host still installs %s", m.to.Ref)
	}
	m.c.Faults = nil
	if a := w.s.resolve(m.c, row.Tenant, row.OperationID, true); a.err != nil || a.status != 200 {
		t.Fatalf("the readback after the restart: %d %v %s; want the committed receipt", a.status, a.err, a.body)
	}
	r := w.resource(m.res.UID)
	if r.DefVersion != m.to.Ref.DefinitionVersion || r.Generation != m.res.Generation+1 || r.ClaimOp != "" {
		t.Fatalf("the resource after the advance: %s at generation %d, claim %q; want %s at %d, unclaimed",
			r.DefVersion, r.Generation, r.ClaimOp, m.to.Ref.DefinitionVersion, m.res.Generation+1)
	}
	if pins := w.pins(m.res.UID); len(pins) != 1 || pins[0].TargetUID != m.old.UID || r.Pins != 1 {
		t.Fatalf("pins after an advance under a Form no longer installed: %+v (counted %d); want the one on %s kept", pins, r.Pins, m.old.Name)
	}
	if kept := w.repins(m.res.UID); len(kept) != 1 || kept[0]["kept"] != "pins" || kept[0]["why"] != "toForm is no longer installed" {
		t.Fatalf("the journal's E:repin entries %v; want one saying the pins were kept because toForm is no longer installed", kept)
	}
}

// repins are the journal's E:repin entries of the resource uid.
func (w *world) repins(uid string) []map[string]any {
	w.t.Helper()
	var kept []map[string]any
	events, _ := w.j.Since(context.Background(), 0, 1000)
	for _, ev := range events {
		var d map[string]any
		if ev.Type == "transition" && json.Unmarshal(ev.Data, &d) == nil && d["step"] == "E:repin" && d["uid"] == uid {
			kept = append(kept, d)
		}
	}
	return kept
}

// pins reads the stored pins of the resource uid.
func (w *world) pins(uid string) []store.Pin {
	w.t.Helper()
	var pins []store.Pin
	w.write(func(q store.Q) error {
		var err error
		pins, err = store.PinsOf(q, uid)
		return err
	})
	return pins
}

// stoppedAfterProof claims m's transition and runs its POST until it stops
// after the proof (a crash at point D): the readback is left to advance it.
func (w *world) stoppedAfterProof(m movedEndpoint) *opRow {
	w.t.Helper()
	row, _, e, err := w.s.claim(m.c, m.p)
	must(w.t, e, err)
	m.c.Faults = fault.Fixed(fault.Spec{Fault: fault.TransitionCrash.Name, Value: "D", Count: 1})
	if a := w.s.dispatch(m.c, row); a.crash == nil || a.crash.point != "D" {
		w.t.Fatalf("the POST did not stop after the proof (point D): %+v", a)
	}
	return row
}

// movedEndpoint stores a WorkerEndpoint "edge" at worker-endpoint 0.1 on its
// fixture's worker (old) and, when withTarget, a second worker named target
// (other); its transition to 0.2 points the endpoint's worker at target.
type movedEndpoint struct {
	old, other, res *store.Resource
	to              *catalog.Form
	c               *Call
	p               *parsed
}

func (w *world) movedEndpoint(target string, withTarget bool) movedEndpoint {
	w.t.Helper()
	tr, from, to := w.marked("worker-endpoint-0.1-to-0.2")
	spec := fixture(w.t, from)
	node := spec["worker"].(map[string]any)
	k, _ := w.cat.Kind(node["apiVersion"].(string), node["kind"].(string))
	worker := k.DefaultCreate()
	m := movedEndpoint{to: to}
	m.old = w.insert(worker, node["name"].(string), fixture(w.t, worker))
	if withTarget {
		m.other = w.insert(worker, target, fixture(w.t, worker))
	}
	m.res = w.insert(from, "edge", spec)
	moved := map[string]any{}
	for k, v := range spec {
		moved[k] = v
	}
	moved["worker"] = map[string]any{"apiVersion": node["apiVersion"], "kind": node["kind"], "name": target}
	m.c, m.p = w.op(tr, from, to, m.res, moved)
	return m
}

// The advance re-pins the moved references; a store read that fails while it
// resolves them is the host failing, not "the new references are gone": the
// readback answers the failure, nothing of the advance is kept, and the next
// readback advances with the new pin. Each read of the readback fails in turn
// (store.read-fail=n), until n passes the last.
func TestAFailedReadWhileRepinningFailsTheAdvance(t *testing.T) {
	failed := 0
	for n := 1; ; n++ {
		if n > 40 {
			t.Fatal("a readback of more than 40 reads: the sweep does not end")
		}
		w := newWorld(t)
		m := w.movedEndpoint("other-worker", true)
		row := w.stoppedAfterProof(m)
		fs := fault.Fixed(fault.Spec{Fault: fault.StoreReadFail.Name, Value: strconv.Itoa(n), Count: 1})
		m.c.Faults = fs
		a := w.s.resolve(m.c, row.Tenant, row.OperationID, true)
		if fs.Armed(fault.StoreReadFail) { // the readback has fewer reads than n
			if a.err != nil || a.status != 200 {
				t.Fatalf("store.read-fail=%d did not fire, yet the readback answered %d %v", n, a.status, a.err)
			}
			if failed == 0 {
				t.Fatal("store.read-fail=1 did not fail the readback's first read")
			}
			break
		}
		failed++
		if a.err == nil || a.err.Code != wire.CodeInternalError || !strings.Contains(a.err.Message, "store.read-fail") || strings.Contains(a.err.Message, "hostsim bug") {
			t.Fatalf("store.read-fail=%d: the readback answered %d %v %s; want internal_error naming the fault, not a bug", n, a.status, a.err, a.body)
		}
		if r := w.resource(m.res.UID); r.Generation != m.res.Generation || r.ClaimOp != row.OperationID {
			t.Fatalf("store.read-fail=%d: the failed readback left the resource at generation %d, claim %q", n, r.Generation, r.ClaimOp)
		}
		m.c.Faults = nil
		if a := w.s.resolve(m.c, row.Tenant, row.OperationID, true); a.err != nil || a.status != 200 {
			t.Fatalf("store.read-fail=%d: the next readback answered %d %v %s", n, a.status, a.err, a.body)
		}
		pins := w.pins(m.res.UID)
		if r := w.resource(m.res.UID); r.Generation != m.res.Generation+1 || len(pins) != 1 || pins[0].TargetUID != m.other.UID {
			t.Fatalf("store.read-fail=%d: after the next readback the resource is at generation %d with pins %+v; want %d, pinned to other-worker",
				n, r.Generation, pins, m.res.Generation+1)
		}
	}
	t.Logf("store.read-fail failed each of the readback's %d reads in turn", failed)
}
