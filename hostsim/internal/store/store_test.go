package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPrivateDatabasesAreIsolatedAndNameNoFile(t *testing.T) {
	a, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	// the probe is a resource row, which SQLite keeps (records, prepares and
	// counters of a private database live in its mirror alone)
	r := &Resource{Tenant: "t", Space: "s", APIVersion: "g/v1", Kind: "K", Name: "n", UID: "u-1", Spec: []byte(`{}`)}
	if err := a.Write(ctx, func(q Q) error { return InsertResource(q, r) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := GetResourceByUID(b.DB(), "u-1"); got != nil {
		t.Fatal("two private databases share state")
	}
	if got, _ := GetResourceByUID(a.DB(), "u-1"); got == nil {
		t.Fatal("the private database lost the resource it stored")
	}
	if !strings.HasPrefix(a.Path(), "memory:") {
		t.Fatalf("a private database is named %q, not memory:", a.Path())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// A new Store of the same name would see nothing: the memory is gone.
	c, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, _ := GetResourceByUID(c.DB(), "u-1"); got != nil {
		t.Fatalf("a new private database starts with resource %+v", got)
	}
}

func TestWriteRollsBackOnError(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	_ = s.Write(ctx, func(q Q) error {
		_ = AddCounter(q, "mutations", 1)
		return os.ErrInvalid
	})
	if c, _ := CounterValues(s.DB()); c["mutations"] != 0 {
		t.Fatal("a failed transaction left its write behind")
	}
	_ = s.Write(ctx, func(q Q) error { return AddCounter(q, "mutations", 1) })
	if err := s.Write(ctx, s.ResetTables); err != nil {
		t.Fatal(err)
	}
	if c, _ := CounterValues(s.DB()); len(c) != 0 {
		t.Fatalf("reset left counters %v", c)
	}
}

// On a file database (WAL) a reader completes while a writer holds its
// transaction open: the writer waits for the reader, so serialized reads
// would deadlock this test.
func TestFileReadsDoNotWaitForTheWriter(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "wal.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	readDone := make(chan error)
	err = s.Write(ctx, func(q Q) error {
		if err := AddCounter(q, "mutations", 1); err != nil {
			return err
		}
		go func() {
			readDone <- s.Read(ctx, func(r Q) error {
				c, err := CounterValues(r)
				if err == nil && c["mutations"] != 0 {
					t.Error("a reader saw an uncommitted write")
				}
				return err
			})
		}()
		return <-readDone
	})
	if err != nil {
		t.Fatal(err)
	}
}

// On the in-memory database a reader waits only while a write transaction is
// open, and then sees what it committed.
func TestMemoryReadsWaitOnlyForAnOpenWrite(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	started, readDone := make(chan struct{}), make(chan int64)
	go func() {
		<-started
		var n int64
		_ = s.Read(ctx, func(r Q) error {
			c, err := CounterValues(r)
			n = c["mutations"]
			return err
		})
		readDone <- n
	}()
	err = s.Write(ctx, func(q Q) error {
		close(started)
		return AddCounter(q, "mutations", 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := <-readDone; n != 1 {
		t.Fatalf("a reader that waited for the write saw mutations=%d, want 1", n)
	}
}

// A write whose BEGIN fails fails as a whole, even when fn drops the error of
// the statement that met it: nothing reaches the mirror, and the next write
// opens its transaction afresh.
func TestWriteFailsWhenItsBeginFails(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.Write(ctx, func(q Q) error { return AddCounter(q, "mutations", 1) }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.conn.ExecContext(ctx, "BEGIN"); err != nil { // BEGIN IMMEDIATE now meets an open transaction
		t.Fatal(err)
	}
	r := &Resource{Tenant: "t", Space: "s", APIVersion: "g/v1", Kind: "K", Name: "n", UID: "u-1", Spec: []byte(`{}`)}
	before := s.Commits()
	err = s.Write(ctx, func(q Q) error {
		var n int64
		_ = q.QueryRow(`SELECT value FROM counters WHERE name='mutations'`).Scan(&n) // error dropped
		_ = InsertResource(q, r)
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "transaction") {
		t.Fatalf("write over a failed BEGIN: %v, want SQLite's error", err)
	}
	if s.Commits() != before {
		t.Fatal("a write over a failed BEGIN counted a commit")
	}
	var got *Resource
	_ = s.Read(ctx, func(q Q) error { got, _ = GetResource(q, "t", "s", "g/v1", "K", "n"); return nil })
	if got != nil {
		t.Fatal("the resource of a failed write reached the mirror")
	}
	if _, err := s.w.conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, func(q Q) error { return InsertResource(q, r) }); err != nil || s.Commits() != before+1 {
		t.Fatalf("the next write: %v, %d commits, want one more than %d", err, s.Commits(), before)
	}
}

// AfterCommit actions run once their write committed, never for a write that
// rolled back, and only inside a write.
func TestAfterCommitRunsOnlyForACommittedWrite(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ran := 0
	_ = s.Write(ctx, func(q Q) error {
		AfterCommit(q, func() { ran++ })
		_ = AddCounter(q, "mutations", 1)
		return os.ErrInvalid
	})
	if ran != 0 {
		t.Fatal("the action of a rolled-back write ran")
	}
	if err := s.Write(ctx, func(q Q) error {
		AfterCommit(q, func() { ran++ })
		return AddCounter(q, "mutations", 1)
	}); err != nil {
		t.Fatal(err)
	}
	if ran != 1 {
		t.Fatalf("the action of a committed write ran %d times, want 1", ran)
	}
	if err := s.Write(ctx, func(Q) error { return nil }); err != nil || ran != 1 {
		t.Fatalf("a later write ran an earlier write's action again (ran %d, %v)", ran, err)
	}
	for name, outside := range map[string]func(){
		"AfterCommit":        func() { AfterCommit(s.DB(), func() {}) },
		"AppendEvent":        func() { AppendEvent(s.DB(), 1, "mutation", []byte("{}")) },
		"AppendLastingEvent": func() { AppendLastingEvent(s.DB(), 1, "migration", []byte("{}")) },
	} {
		if msg := panicOf(outside); !strings.Contains(msg, "outside a write transaction") {
			t.Errorf("%s outside a write transaction: panic %q, want one that says it is outside a write transaction", name, msg)
		}
	}
}

// A write's events reach the sink when it commits, in order; when it rolls
// back only its lasting events do (they tell of effects outside the store that
// the rollback cannot undo), and each once.
func TestLastingEventsOutliveARolledBackWrite(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	s.OnEvents(func(es []Pending) {
		for _, e := range es {
			got = append(got, fmt.Sprintf("%s:%v", e.Type, e.Lasting))
		}
	})
	ctx := context.Background()
	events := func(q Q) {
		AppendEvent(q, 1, "mutation", []byte("{}"))
		AppendLastingEvent(q, 2, "migration", []byte("{}"))
		AppendEvent(q, 3, "deletion", []byte("{}"))
	}
	if err := s.Write(ctx, func(q Q) error {
		events(q)
		_ = AddCounter(q, "mutations", 1)
		return os.ErrInvalid
	}); err != os.ErrInvalid {
		t.Fatalf("the failing write returned %v", err)
	}
	if want := []string{"migration:true"}; !slices.Equal(got, want) {
		t.Fatalf("a rolled-back write handed the sink %v, want %v", got, want)
	}
	got = nil
	if err := s.Write(ctx, func(q Q) error {
		events(q)
		return AddCounter(q, "mutations", 1)
	}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"mutation:false", "migration:true", "deletion:false"}; !slices.Equal(got, want) {
		t.Fatalf("a committed write handed the sink %v, want %v", got, want)
	}
	got = nil
	if err := s.Write(ctx, func(Q) error { return nil }); err != nil || got != nil {
		t.Fatalf("a later write handed the sink an earlier write's events again: %v (%v)", got, err)
	}
}

// panicOf runs fn and returns what it panicked with ("" when it returned).
func panicOf(fn func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	fn()
	return ""
}

// WriteWith's hook fails a statement as SQLite would: that statement does
// nothing, the transaction stays open, and what fn does with the error decides
// the write (returned: all rolls back; dropped: the other statements commit).
func TestWriteWithFailsOneStatementAndLeavesTheDecisionToFn(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	failSecond := func() func(bool) error {
		n := 0
		return func(read bool) error {
			if read {
				t.Fatal("a read statement in a write of counters alone")
			}
			if n++; n == 2 {
				return os.ErrPermission
			}
			return nil
		}
	}
	err = s.WriteWith(ctx, failSecond(), func(q Q) error {
		if err := AddCounter(q, "a", 1); err != nil {
			return err
		}
		return AddCounter(q, "b", 1)
	})
	if err != os.ErrPermission {
		t.Fatalf("the failed statement's error did not come back: %v", err)
	}
	if c, _ := CounterValues(s.DB()); len(c) != 0 {
		t.Fatalf("a write whose second statement failed left %v", c)
	}
	if err := s.WriteWith(ctx, failSecond(), func(q Q) error {
		_ = AddCounter(q, "a", 1)
		_ = AddCounter(q, "b", 1) // dropped: the statement did nothing
		return AddCounter(q, "c", 1)
	}); err != nil {
		t.Fatal(err)
	}
	if c, _ := CounterValues(s.DB()); c["a"] != 1 || c["b"] != 0 || c["c"] != 1 {
		t.Fatalf("counters %v, want a and c written and the failed b not", c)
	}
	if err := s.Write(ctx, func(q Q) error { return AddCounter(q, "b", 1) }); err != nil {
		t.Fatalf("the hook outlived its write: %v", err)
	}
}

// The hook is asked before reads too (read=true): a failed Query returns its
// error, a failed QueryRow scans as cancelled and the write returns the hook's
// error when fn returns that, and a read error fn drops leaves the write to
// commit what fn wrote.
func TestWriteWithFailsAReadAsItFailsAWrite(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	errRead := errors.New("read failed on purpose")
	var asked []bool
	failReads := func(read bool) error {
		asked = append(asked, read)
		if read {
			return errRead
		}
		return nil
	}
	if err := s.WriteWith(ctx, failReads, func(q Q) error {
		if err := AddCounter(q, "a", 1); err != nil {
			return err
		}
		_, err := q.Query(`SELECT name FROM counters`)
		return err
	}); err != errRead {
		t.Fatalf("a failed Query: %v, want the hook's error", err)
	}
	if len(asked) != 2 || asked[0] || !asked[1] {
		t.Fatalf("the hook was asked %v, want a write then a read", asked)
	}
	err = s.WriteWith(ctx, failReads, func(q Q) error {
		var v int64
		err := q.QueryRow(`SELECT value FROM counters WHERE name = 'a'`).Scan(&v)
		if !errors.Is(err, errRead) { // the row itself scans as the hook's error
			t.Errorf("the failed QueryRow scans as %v, want the hook's error", err)
		}
		return err
	})
	if !errors.Is(err, errRead) || !strings.Contains(err.Error(), "read failed on purpose") {
		t.Fatalf("a failed QueryRow: %v, want the hook's error", err)
	}
	if c, _ := CounterValues(s.DB()); len(c) != 0 {
		t.Fatalf("failed writes left %v", c)
	}
	if err := s.WriteWith(ctx, failReads, func(q Q) error {
		var v int64
		_ = q.QueryRow(`SELECT value FROM counters WHERE name = 'a'`).Scan(&v) // dropped
		return AddCounter(q, "b", 1)
	}); err != nil {
		t.Fatalf("a dropped read error: %v", err)
	}
	if c, _ := CounterValues(s.DB()); c["b"] != 1 {
		t.Fatalf("counters %v, want b written after the dropped read", c)
	}
	// the lookups the mirror answers are reads too: each asks the hook, and
	// fails with its error; outside WriteWith nothing asks
	for name, lookup := range map[string]func(q Q) error{
		"GetResource":      func(q Q) error { _, err := GetResource(q, "t", "s", "a/v1", "K", "n"); return err },
		"GetResourceByUID": func(q Q) error { _, err := GetResourceByUID(q, "u-1"); return err },
		"UIDLive":          func(q Q) error { _, err := UIDLive(q, "u-1"); return err },
		"PinsOf":           func(q Q) error { _, err := PinsOf(q, "u-1"); return err },
	} {
		asked = nil
		if err := s.WriteWith(ctx, failReads, lookup); err != errRead || len(asked) != 1 || !asked[0] {
			t.Errorf("%s inside WriteWith: %v, the hook asked %v; want the hook's error from one read", name, err, asked)
		}
		if err := s.Write(ctx, lookup); err != nil {
			t.Errorf("%s inside Write: %v", name, err)
		}
	}
}

// The lookup a mutation makes of the resources it may re-render (Affected) goes
// through indexes, and so do the count of a version's pending deletes (PendingDelete)
// and the lists of a kind a hostname claim reads (ListKind, ListKindEveryTenant):
// what SQLite plans for them scans no table whole, or every
// mutation of a host costs in proportion to all the pins and resources it holds.
func TestRelationLookupsSearchIndexes(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	planOf := func(query string, args ...any) []string {
		rows, err := s.DB().Query(`EXPLAIN QUERY PLAN `+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		return plan
	}
	plan := planOf(affectedQuery, "t", "s", "u", "A", "B", "C", "D", "v", "K", "n")
	for _, step := range plan {
		if strings.HasPrefix(step, "SCAN ") {
			t.Errorf("Affected scans a table whole (%q); plan %q", step, plan)
		}
	}
	if pending := planOf(pendingDeleteQuery, "uid"); len(pending) != 1 || !strings.Contains(pending[0], "operations_pending") {
		t.Errorf("PendingDelete does not search operations_pending; plan %q", pending)
	}
	if !slices.ContainsFunc(plan, func(s string) bool { return strings.Contains(s, "pins_target_name") }) {
		t.Errorf("Affected does not find the pins naming a target through pins_target_name; plan %q", plan)
	}
	// a hostname claim lists its kinds tenant-wide (or, under a fault, host-wide)
	// on each write of a hostname: a search of resources_kind, in the order
	// asked, with no sort of its own
	for name, kindPlan := range map[string][]string{
		"ListKind tenant-wide":  planOf(listKindTenantQuery, "t", "K"),
		"ListKindEveryTenant":   planOf(listKindEveryTenantQuery, "K"),
		"ListKind of one space": planOf(listKindQuery, "t", "K", "s"),
	} {
		if len(kindPlan) != 1 || !strings.HasPrefix(kindPlan[0], "SEARCH resources USING ") {
			t.Errorf("%s is not one search of resources; plan %q", name, kindPlan)
		}
	}
	if p := planOf(listKindTenantQuery, "t", "K"); len(p) != 1 || !strings.Contains(p[0], "resources_kind") {
		t.Errorf("ListKind tenant-wide does not search resources_kind; plan %q", p)
	}
}

// A write whose fn panics (a hostsim bug; the server recovers the request)
// rolls back as a failed one does: the store goes on taking writes, nothing
// the panicking write ran is kept, and its lasting events are handed over,
// since what they tell of happened outside the store (docs/decisions.md).
func TestAPanickingWriteRollsBackAndTheStoreGoesOn(t *testing.T) {
	for _, path := range []string{"", filepath.Join(t.TempDir(), "p.db")} {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		s.OnEvents(func(es []Pending) {
			for _, e := range es {
				got = append(got, fmt.Sprintf("%s:%v", e.Type, e.Lasting))
			}
		})
		ctx := context.Background()
		msg := panicOf(func() {
			_ = s.Write(ctx, func(q Q) error {
				AppendEvent(q, 1, "mutation", []byte("{}"))
				AppendLastingEvent(q, 2, "migration", []byte("{}"))
				if err := AddCounter(q, "mutations", 5); err != nil {
					t.Fatal(err)
				}
				panic("a bug inside a decision")
			})
		})
		if msg != "a bug inside a decision" {
			t.Fatalf("%q: the write's panic reached its caller as %q, want it unchanged", path, msg)
		}
		if want := []string{"migration:true"}; !slices.Equal(got, want) {
			t.Fatalf("%q: a panicking write handed the sink %v, want %v", path, got, want)
		}
		if err := s.Write(ctx, func(q Q) error { return AddCounter(q, "mutations", 1) }); err != nil {
			t.Fatalf("%q: the write after a panicking one failed: %v", path, err)
		}
		var n map[string]int64
		if err := s.Read(ctx, func(q Q) error {
			var err error
			n, err = CounterValues(q)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if n["mutations"] != 1 {
			t.Fatalf("%q: mutations counter %d after a panicking write (+5) and a committed one (+1), want 1", path, n["mutations"])
		}
		s.Close()
	}
}
