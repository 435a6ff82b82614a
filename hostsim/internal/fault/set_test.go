package fault

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestANilOrEmptySetNeverFires(t *testing.T) {
	var s *Set
	if s.On(FenceIgnore) || s.Armed(FenceIgnore) || s.Pending() {
		t.Fatal("a nil Set fired")
	}
	if Fixed().On(FenceIgnore) {
		t.Fatal("an empty Set fired")
	}
}

func TestAFiringIsCountedOnlyWhereAsked(t *testing.T) {
	s := Fixed(Spec{Fault: "fence.ignore", Count: 2})
	if !s.Armed(FenceIgnore) || s.Pending() {
		t.Fatal("Armed must report the fault without firing it")
	}
	if !s.On(FenceIgnore) || !s.On(FenceIgnore) {
		t.Fatal("a count=2 fault did not fire twice")
	}
	if s.On(FenceIgnore) || s.Armed(FenceIgnore) {
		t.Fatal("a count=2 fault fired a third time")
	}
	if n := len(s.fired.list); n != 2 {
		t.Fatalf("%d firings pending, want 2", n)
	}
	if s.On(IfMatchIgnore) {
		t.Fatal("an unarmed fault fired")
	}
}

func TestScopeAboutAndWhere(t *testing.T) {
	s := Fixed(Spec{Fault: "outputs.omit", Kind: "WorkerEndpoint", Resource: "edge", Value: "url"},
		Spec{Fault: "transition.crash", Value: "C"})
	if s.On(OutputsOmit) {
		t.Fatal("a fault scoped to a resource fired for an unscoped request")
	}
	s.Scope("WorkerEndpoint", "other")
	if s.On(OutputsOmit) {
		t.Fatal("a fault scoped to another resource fired")
	}
	about := s.About("WorkerEndpoint", "edge")
	if v, ok := about.Value(OutputsOmit); !ok || v != "url" {
		t.Fatalf("Value = %q, %v; want url, true", v, ok)
	}
	if !s.Pending() {
		t.Fatal("a firing through About is not the request's")
	}
	at := func(p string) func(string) bool { return func(v string) bool { return v == p } }
	if _, ok := s.Where(TransitionCrash, at("A")); ok {
		t.Fatal("a crash armed at C fired at A")
	}
	if _, ok := s.Where(TransitionCrash, at("C")); !ok {
		t.Fatal("a crash armed at C did not fire at C")
	}
}

// Two requests asking for a count=1 fault at once spend it once.
func TestACountIsSpentOnceUnderConcurrency(t *testing.T) {
	a := &armed{rule: FenceIgnore, spec: Spec{Fault: "fence.ignore", Count: 1}}
	a.remaining.Store(1)
	var fired atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &Set{armed: []*armed{a}, fired: &firings{}}
			if s.On(FenceIgnore) {
				fired.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := fired.Load(); n != 1 {
		t.Fatalf("a count=1 fault fired %d times", n)
	}
}

// Armed, like a firing, keeps to the request's kind and resource.
func TestArmedKeepsTheRequestsScope(t *testing.T) {
	s := Fixed(Spec{Fault: "mutation.exclusive", Kind: "WorkerEndpoint", Resource: "edge"})
	if s.Armed(MutationExclusive) {
		t.Fatal("a fault scoped to a resource is armed for a request that named none")
	}
	s.Scope("WorkerEndpoint", "other")
	if s.Armed(MutationExclusive) {
		t.Fatal("a fault scoped to another resource is armed")
	}
	s.Scope("WorkerEndpoint", "edge")
	if !s.Armed(MutationExclusive) || s.Pending() {
		t.Fatalf("Armed for its own resource: %v, pending %v; want true, false", s.Armed(MutationExclusive), s.Pending())
	}
}

// A statement fault fails the statement its value counts to, and the first
// when it has no value; data statements, reads inside writes and database
// steps are counted apart.
func TestStatementFaultsCountTheirOwnKind(t *testing.T) {
	first := Fixed(Spec{Fault: "store.fail"})
	err := first.failStatement(false)
	if f, ok := err.(*StoreFailure); !ok || f.N != 1 || f.Read {
		t.Fatalf("store.fail without a value: the first statement answered %v, want data statement 1 failing", err)
	}
	if err := first.failStatement(false); err != nil {
		t.Fatalf("store.fail without a value failed the second statement too: %v", err)
	}
	second := Fixed(Spec{Fault: "store.read-fail", Value: "2"})
	for i, read := range []bool{true, false, false} {
		if err := second.failStatement(read); err != nil {
			t.Fatalf("store.read-fail=2: statement %d (read %v) failed: %v", i+1, read, err)
		}
	}
	if f, ok := second.failStatement(true).(*StoreFailure); !ok || f.N != 2 || !f.Read {
		t.Fatalf("store.read-fail=2: the second read answered %v, want read 2 failing", f)
	}
	db := Fixed(Spec{Fault: "migrations.db-fail", Value: "2"})
	if err := db.DatabaseStep("begin"); err != nil {
		t.Fatalf("migrations.db-fail=2 failed step 1: %v", err)
	}
	if f, ok := db.DatabaseStep("exec 0001_init.sql").(*DatabaseFailure); !ok || f.N != 2 || f.Step != "exec 0001_init.sql" {
		t.Fatalf("migrations.db-fail=2: step 2 answered %v, want it failing by its name", f)
	}
}
