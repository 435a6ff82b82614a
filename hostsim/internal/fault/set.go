package fault

import (
	"context"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// fires counts every firing in this process by rule, for the test that proves
// each declared fault is reachable (fires) from the lane tests.
var fires = tally()

func tally() map[*Rule]*atomic.Int64 {
	m := make(map[*Rule]*atomic.Int64, len(Table))
	for _, r := range Table {
		m[r] = &atomic.Int64{}
	}
	return m
}

// Fires returns how often each rule fired in this process, by name.
func Fires() map[string]int64 {
	out := make(map[string]int64, len(fires))
	for r, n := range fires {
		out[r.Name] = n.Load()
	}
	return out
}

// Set is the armed faults as one request sees them: a snapshot taken when
// the request began, scoped to the request's kind and resource name. A nil or
// empty Set never fires, so pure code can be called without faults.
//
// On, Value and Where are the points. Each asks whether a fault acts here
// and, when it does, counts one firing: asking is the only place a firing is
// counted, so a point belongs on a line of its own exactly where the fault
// acts, never inside a compound condition whose order would decide whether
// it is asked. Firings are written by Write, inside the transaction of the
// request's write when there is one, else by Flush.
type Set struct {
	armory     *Armory
	armed      []*armed
	requestID  string
	kind, name string
	route      string // the lane route serving the request ("" until routed)
	fired      *firings
}

type firing struct {
	f          *armed
	kind, name string
}

type firings struct {
	list       []firing
	statements int // the request's data statements so far (store.fail)
	reads      int // the request's reads inside its writes so far, mirror lookups included (store.read-fail)
	dbSteps    int // the request's steps on a migration application's database so far (migrations.db-fail)
}

// Fixed is a Set over the given faults with no store behind it (tests of
// pure code): it fires as an armed host would and records nothing.
func Fixed(specs ...Spec) *Set {
	s := &Set{fired: &firings{}}
	for i, sp := range specs {
		rule, ok := Lookup(sp.Fault)
		if !ok {
			panic("fault.Fixed: unknown fault " + sp.Fault)
		}
		x := &armed{id: int64(i + 1), rule: rule, spec: sp}
		x.remaining.Store(-1)
		if sp.Count > 0 {
			x.remaining.Store(sp.Count)
		}
		s.armed = append(s.armed, x)
	}
	return s
}

// On reports whether rule r acts for this request, counting one firing when it does.
func (s *Set) On(r *Rule) bool {
	_, ok := s.Where(r, nil)
	return ok
}

// Value is On for a fault that carries a value: it returns the value.
func (s *Set) Value(r *Rule) (string, bool) {
	return s.Where(r, nil)
}

// Where is Value for a fault armed with one of several values (a crash
// point): only an armed instance whose value match accepts fires.
func (s *Set) Where(r *Rule, match func(value string) bool) (string, bool) {
	if s == nil || len(s.armed) == 0 {
		return "", false
	}
	for _, f := range s.armed {
		if f.rule != r || !f.spec.Matches(s.kind, s.name, s.route) || match != nil && !match(f.spec.Value) {
			continue
		}
		if !f.spend() {
			continue
		}
		s.fired.list = append(s.fired.list, firing{f: f, kind: s.kind, name: s.name})
		if n := fires[r]; n != nil {
			n.Add(1)
		}
		return f.spec.Value, true
	}
	return "", false
}

// Armed reports whether r is armed for this request without firing it: only
// for a fault whose effect spans the whole request (mutation.exclusive holds
// every mutation while armed and fires where it refuses one).
func (s *Set) Armed(r *Rule) bool {
	if s == nil {
		return false
	}
	for _, f := range s.armed {
		if f.rule == r && f.spec.Matches(s.kind, s.name, s.route) && f.remaining.Load() != 0 {
			return true
		}
	}
	return false
}

// About is this request's Set scoped to another resource (a dependent being
// re-rendered); its firings are this request's.
func (s *Set) About(kind, name string) *Set {
	if s == nil {
		return nil
	}
	c := *s
	c.kind, c.name = kind, name
	return &c
}

// Scope rescopes the Set once the request's body named its kind and resource.
func (s *Set) Scope(kind, name string) {
	if s != nil {
		s.kind, s.name = kind, name
	}
}

// Route scopes the Set to the lane route serving the request.
func (s *Set) Route(name string) {
	if s != nil {
		s.route = name
	}
}

// RequestID is the id of the request this Set belongs to.
func (s *Set) RequestID() string {
	if s == nil {
		return ""
	}
	return s.requestID
}

// Firings are the names of the faults this request fired whose firings wait
// to be recorded, in order (what a test of a decision prints).
func (s *Set) Firings() []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.fired.list))
	for i, x := range s.fired.list {
		out[i] = x.f.spec.Fault
	}
	return out
}

// Pending reports whether firings wait to be recorded.
func (s *Set) Pending() bool { return s != nil && len(s.fired.list) > 0 }

// Write is the one way a request writes: fn runs in one write transaction of
// st, and the request's pending firings are recorded in that same transaction,
// so a write and the faults that shaped it commit together (a crash point's
// firing is as durable as the write it follows). Once it committed, the
// firings are forgotten; an error of fn rolls both back and leaves them
// pending for the request's next write or its Flush. now stamps the firings.
// An error of fn made by Answer is not a rollback: the write commits what fn
// did, with the firings, and Write returns the refusal Answer carried.
func (s *Set) Write(ctx context.Context, st *store.Store, now func() time.Time, fn func(q store.Q) error) error {
	var answer *wire.Error
	err := st.WriteWith(ctx, s.failStatement, func(q store.Q) error {
		if err := fn(q); err != nil {
			a, ok := err.(*answered)
			if !ok {
				return err
			}
			answer = a.refusal
		}
		return s.record(q, now())
	})
	if err != nil {
		return err
	}
	s.committed()
	if answer != nil {
		return answer
	}
	return nil
}

// Answer is what a write's fn returns, from a decision that answers
// (refusal, err), to end the write: err, the host's store failing, rolls it
// back whole, as any error does; a refusal commits what fn did and is then
// Write's answer. That is a migration that failed after changing its own
// database: the ledger's new rows stay there whatever the write does, so
// their journal events and the re-rendering of the database's other
// applications commit without the resource, and the request answers the
// failure (docs/protocol.md#migrations). With neither it is nil, and fn
// goes on.
func Answer(refusal *wire.Error, err error) error {
	if err != nil {
		return err
	}
	if refusal != nil {
		return &answered{refusal}
	}
	return nil
}

// answered carries Answer's refusal out of fn to Write.
type answered struct{ refusal *wire.Error }

func (a *answered) Error() string { return "committed, then answered: " + a.refusal.Error() }

// StoreFailure is the error of the statement store.fail or store.read-fail
// failed.
type StoreFailure struct {
	N    int
	Read bool // a read (store.read-fail), else a data statement (store.fail)
}

// Injected marks the failure as one a fault made (decide.Injected).
func (e *StoreFailure) Injected() bool { return true }

func (e *StoreFailure) Error() string {
	if e.Read {
		return fmt.Sprintf("read %d inside this request's writes failed: the store.read-fail fault injected a storage error (nothing of that write is stored)", e.N)
	}
	return fmt.Sprintf("data statement %d of this request failed: the store.fail fault injected a storage error (nothing of that write is stored)", e.N)
}

// failStatement counts the request's data statements and its reads inside
// writes, and fails the one an armed store.fail or store.read-fail names: the
// point is asked once per statement, and fires only on the statement whose
// number (of its kind) is the fault's value.
func (s *Set) failStatement(read bool) error {
	if s == nil || len(s.armed) == 0 {
		return nil
	}
	var n int
	var ok bool
	if read {
		s.fired.reads++
		n = s.fired.reads
		_, ok = s.Where(StoreReadFail, nth(n))
	} else {
		s.fired.statements++
		n = s.fired.statements
		_, ok = s.Where(StoreFail, nth(n))
	}
	if !ok {
		return nil
	}
	return &StoreFailure{N: n, Read: read}
}

// DatabaseFailure is the error of the step migrations.db-fail failed.
type DatabaseFailure struct {
	N    int
	Step string
}

// Injected marks the failure as one a fault made (decide.Injected).
func (e *DatabaseFailure) Injected() bool { return true }

func (e *DatabaseFailure) Error() string {
	return fmt.Sprintf("step %d on the database (%s) failed: the migrations.db-fail fault injected a storage error", e.N, e.Step)
}

// DatabaseStep counts the request's steps on a migration application's
// database and fails the one an armed migrations.db-fail names; the session
// asks it before each step (sqldb.Session.Inject).
func (s *Set) DatabaseStep(step string) error {
	if s == nil || len(s.armed) == 0 {
		return nil
	}
	s.fired.dbSteps++
	n := s.fired.dbSteps
	if _, ok := s.Where(MigrationsDBFail, nth(n)); !ok {
		return nil
	}
	return &DatabaseFailure{N: n, Step: step}
}

// nth matches a statement fault's value against statement n (no value: the first).
func nth(n int) func(v string) bool {
	return func(v string) bool { return v == strconv.Itoa(n) || v == "" && n == 1 }
}

// Flush records what is still pending in a write of its own (a request whose
// firings had no write to ride along with); it writes nothing when nothing
// is pending.
func (s *Set) Flush(st *store.Store, now func() time.Time) error {
	if !s.Pending() || s.armory == nil {
		return nil
	}
	return s.Write(context.Background(), st, now, func(store.Q) error { return nil })
}

// record writes the pending firings in q.
func (s *Set) record(q store.Q, at time.Time) error {
	if !s.Pending() || s.armory == nil {
		return nil
	}
	for _, x := range s.fired.list {
		if err := s.armory.record(q, x.f, s.requestID, x.kind, x.name, at); err != nil {
			return err
		}
	}
	return nil
}

// committed forgets the firings record wrote once their transaction committed.
func (s *Set) committed() {
	if !s.Pending() {
		return
	}
	s.fired.list = s.fired.list[:0]
	if s.armory != nil {
		s.armory.spent()
	}
}
