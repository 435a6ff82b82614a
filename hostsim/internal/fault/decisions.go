package fault

import (
	"sync"

	"github.com/takokit/takokit/hostsim/internal/decide"
)

// The faults the pure decisions of package decide act on (Rule.Decision) do
// not reach a decision as a Set: the caller resolves them for its request
// into plain values, the decision asks them, and what it acted on is counted
// here afterwards, as firings of the request recorded in its write.

// byDecision is the rule of each decision fault.
var byDecision = func() (out [decide.Faults]*Rule) {
	for _, r := range Table {
		if r.Decision != 0 {
			out[r.Decision] = r
		}
	}
	return out
}()

// deciding serializes the decisions that were handed armed faults, so that no
// other decision spends a count between the moment one resolved it and the
// moment its firings are counted: a fault of count 1 acts once.
var deciding sync.Mutex

// Decide runs fn, a pure decision, with the decision faults armed for this
// request as plain values (decide.Acts: the firings each has left, scoped to
// the request's kind, name and route), then counts one firing of the fault
// for each time the decision acted on one. fn must not call Decide. With no
// decision fault armed, fn gets nil Acts and nothing is counted.
func (s *Set) Decide(fn func(a *decide.Acts)) {
	if !s.decides() {
		fn(nil)
		return
	}
	deciding.Lock()
	defer deciding.Unlock()
	a := &decide.Acts{}
	for _, f := range s.armed {
		d := f.rule.Decision
		if d == 0 || !f.spec.Matches(s.kind, s.name, s.route) {
			continue
		}
		switch n, left := f.remaining.Load(), a.Left(d); {
		case n == 0 || left < 0:
		case n < 0:
			a.Arm(d, -1)
		default:
			a.Arm(d, left+int32(n))
		}
	}
	fn(a)
	if !a.Acted() {
		return
	}
	for d := range decide.Faults {
		for range a.Fired(decide.Fault(d)) {
			s.fire(byDecision[d])
		}
	}
}

// decides reports whether a decision fault is armed for this request.
func (s *Set) decides() bool {
	if s == nil {
		return false
	}
	for _, f := range s.armed {
		if f.rule.Decision != 0 && f.spec.Matches(s.kind, s.name, s.route) && f.remaining.Load() != 0 {
			return true
		}
	}
	return false
}

// fire spends one firing of r on the first armed instance that has one left
// and counts it, as Where does for a point that asks the Set.
func (s *Set) fire(r *Rule) {
	for _, f := range s.armed {
		if f.rule != r || !f.spec.Matches(s.kind, s.name, s.route) || !f.spend() {
			continue
		}
		s.fired.list = append(s.fired.list, firing{f: f, kind: s.kind, name: s.name})
		if n := fires[r]; n != nil {
			n.Add(1)
		}
		return
	}
}
