package fault

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// memoryStore is an in-memory store closed with the test.
func memoryStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// listed is the armory's list as (source, fault text, fired) lines.
func listed(t *testing.T, a *Armory) []string {
	t.Helper()
	l, err := a.List()
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, x := range l {
		out = append(out, x.Source+" "+x.Spec.Text()+" fired "+strconv.FormatInt(x.Fired, 10))
	}
	return out
}

// A start on a --db file arms the profile's faults afresh, once each, and
// keeps the run-time faults the file holds; a reset disarms those and arms
// the profile's again with fresh counts (docs/protocol.md#faults).
func TestRestartAndResetArmTheProfileOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "host.db")
	profile := []Spec{{Fault: "fence.ignore", Count: 2}}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewArmory(ctx, st, profile)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Arm(ctx, Spec{Fault: "latency", Value: "1ms"}); err != nil {
		t.Fatal(err)
	}
	fire := func(a *Armory, st *store.Store) {
		s := a.Request("req_1", "WorkerEndpoint", "edge")
		if !s.On(FenceIgnore) {
			t.Fatal("fence.ignore did not fire")
		}
		if err := s.Flush(st, time.Now); err != nil {
			t.Fatal(err)
		}
	}
	fire(a, st)
	want := []string{"profile fence.ignore,count=2 fired 1", "runtime latency=1ms fired 0"}
	if got := listed(t, a); !reflect.DeepEqual(got, want) {
		t.Fatalf("before the restart the armory lists %q, want %q", got, want)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if a, err = NewArmory(ctx, st, profile); err != nil {
		t.Fatal(err)
	}
	want = []string{"profile fence.ignore,count=2 fired 0", "runtime latency=1ms fired 0"}
	if got := listed(t, a); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a restart on the file the armory lists %q, want %q", got, want)
	}
	fire(a, st)
	if err := a.Reset(ctx, func(store.Q) error { return nil }); err != nil {
		t.Fatal(err)
	}
	want = []string{"profile fence.ignore,count=2 fired 0"}
	if got := listed(t, a); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a reset the armory lists %q, want %q", got, want)
	}
}

// A firing's journal event names the fault, the request and the resource it
// was about.
func TestAFiringIsJournaledWithItsRequestAndResource(t *testing.T) {
	st := memoryStore(t)
	var mu sync.Mutex
	var events []store.Pending
	st.OnEvents(func(p []store.Pending) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, p...)
	})
	a, err := NewArmory(context.Background(), st, []Spec{{Fault: "fence.ignore"}})
	if err != nil {
		t.Fatal(err)
	}
	s := a.Request("req_7", "WorkerEndpoint", "edge")
	s.On(FenceIgnore)
	if err := s.Flush(st, time.Now); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	var got []map[string]any
	for _, e := range events {
		if e.Type == "fault" {
			var m map[string]any
			if err := json.Unmarshal(e.Data, &m); err != nil {
				t.Fatal(err)
			}
			got = append(got, m)
		}
	}
	want := []map[string]any{{"fault": map[string]any{"fault": "fence.ignore"}, "requestId": "req_7", "kind": "WorkerEndpoint", "resource": "edge"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the journal holds the fault events %v, want %v", got, want)
	}
}

// A firing that cannot be recorded fails the write it rides on: the storage
// failure is the request's answer, and the firing waits, uncounted.
func TestAFiringThatCannotBeRecordedFailsItsWrite(t *testing.T) {
	ctx := context.Background()
	st := memoryStore(t)
	a, err := NewArmory(ctx, st, []Spec{{Fault: "fence.ignore"}, {Fault: "store.fail", Value: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	s := a.Request("req_1", "", "")
	s.On(FenceIgnore)
	err = s.Write(ctx, st, time.Now, func(store.Q) error { return nil })
	if f, ok := err.(*StoreFailure); !ok || f.N != 1 {
		t.Fatalf("the write answered %v, want data statement 1 (the firing's record) failing", err)
	}
	want := []string{"profile fence.ignore fired 0", "profile store.fail=1 fired 0"}
	if got := listed(t, a); !reflect.DeepEqual(got, want) || !s.Pending() {
		t.Fatalf("the armory lists %q (pending %v), want %q and the firings pending", got, s.Pending(), want)
	}
}
