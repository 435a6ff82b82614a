package journal

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

func newJournal(t *testing.T) (*Journal, *store.Store) { return newJournalAt(t, time.Now) }

// newJournalAt is a journal over a store of its own, on the clock now.
func newJournalAt(t *testing.T, now func() time.Time) (*Journal, *store.Store) {
	t.Helper()
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	j := New(st, now)
	t.Cleanup(func() { j.Close(); st.Close() })
	return j, st
}

func appendOne(t *testing.T, st *store.Store, typ string) {
	t.Helper()
	if err := st.Write(context.Background(), func(q store.Q) error { Append(q, time.Now(), typ, map[string]int{"n": 1}); return nil }); err != nil {
		t.Fatal(err)
	}
}

// A subscriber is woken after a committed write and reads what is new, in
// increasing sequence; a later reader resumes after the last id it saw.
func TestSubscribeWakesAndSinceResumes(t *testing.T) {
	j, st := newJournal(t)
	wake, cancel := j.Subscribe()
	defer cancel()
	appendOne(t, st, "mutation")
	select {
	case <-wake:
	case <-time.After(5 * time.Second):
		t.Fatal("a committed write did not wake the subscriber")
	}
	j.Request("tenant-a", "GET", "read", "/x", "", 200, false)
	j.Flush()
	evs, err := j.Since(context.Background(), 0, 100)
	if err != nil || len(evs) != 2 || evs[0].Type != "mutation" || evs[1].Type != "request" || evs[1].Seq <= evs[0].Seq {
		t.Fatalf("events %+v, %v", evs, err)
	}
	appendOne(t, st, "fault")
	after, _ := j.Since(context.Background(), evs[1].Seq, 100)
	if len(after) != 1 || after[0].Type != "fault" || after[0].Seq <= evs[1].Seq {
		t.Fatalf("resuming after %d: %+v", evs[1].Seq, after)
	}
}

// A subscriber that never reads never stalls a writer: its wake-ups coalesce.
func TestASlowSubscriberNeverBlocksAWriter(t *testing.T) {
	j, st := newJournal(t)
	_, cancel := j.Subscribe() // never read
	defer cancel()
	done := make(chan struct{})
	go func() {
		for range 200 {
			appendOne(t, st, "mutation")
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("writers stalled behind a subscriber that does not read")
	}
	cancel()
	cancel() // cancelling twice is harmless
	appendOne(t, st, "mutation")
}

// The journal counts requests and support reads behind the answer.
func TestRequestsAreCounted(t *testing.T) {
	j, st := newJournal(t)
	j.Request("tenant-a", "GET", "support-forms", "/s", "", 200, true)
	j.Request("tenant-a", "GET", "read", "/r", "", 404, false)
	j.Flush()
	var c map[string]int64
	_ = st.Read(context.Background(), func(q store.Q) error { var err error; c, err = store.CounterValues(q); return err })
	if c["requests"] != 2 || c["supportReads"] != 1 {
		t.Fatalf("counters %v", c)
	}
}

// The journal keeps the newest MaxEvents, in order, and numbers go on.
func TestTheRingKeepsTheNewest(t *testing.T) {
	j, _ := newJournal(t)
	for i := range MaxEvents + 10 {
		j.add([]store.Pending{{At: int64(i), Type: "x", Data: []byte("{}")}})
	}
	evs, _ := j.Since(context.Background(), 0, MaxEvents+100)
	if len(evs) != MaxEvents || evs[0].Seq != 11 || evs[len(evs)-1].Seq != MaxEvents+10 {
		t.Fatalf("kept %d events, %d..%d", len(evs), evs[0].Seq, evs[len(evs)-1].Seq)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq != evs[i-1].Seq+1 {
			t.Fatalf("gap at %d", i)
		}
	}
	if after, _ := j.Since(context.Background(), MaxEvents, 5); len(after) != 5 || after[0].Seq != MaxEvents+1 {
		t.Fatalf("since %d: %+v", MaxEvents, after)
	}
	j.Clear()
	j.add([]store.Pending{{Type: "y", Data: []byte("{}")}})
	if evs, _ := j.Since(context.Background(), 0, 10); len(evs) != 1 || evs[0].Seq != MaxEvents+11 {
		t.Fatalf("after Clear: %+v", evs)
	}
}

// The first batch of counted requests, and every 64th after it, purges the
// idempotency records that outlived RecordLife (those bound to an operation
// stay); a journal without both lifetimes purges nothing.
func TestCountedRequestsPurgeExpiredRecords(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		name          string
		life, prepare time.Duration
		wantKeys      []string
		before, after int // batches of one request flushed before the records exist, and after
	}{
		{"the first batch purges", time.Hour, time.Minute, []string{"bound", "fresh"}, 0, 1},
		{"the next 63 do not", time.Hour, time.Minute, []string{"bound", "fresh", "old"}, 1, 63},
		{"the 65th does", time.Hour, time.Minute, []string{"bound", "fresh"}, 1, 64},
		{"no lifetimes, no purge", 0, 0, []string{"bound", "fresh", "old"}, 0, 1},
		{"a record life without a prepare life, no purge", time.Hour, 0, []string{"bound", "fresh", "old"}, 0, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			j, st := newJournalAt(t, func() time.Time { return now })
			j.RecordLife, j.PrepareLife = c.life, c.prepare
			put := func(key, bound string, created time.Time) {
				if err := st.Write(context.Background(), func(q store.Q) error {
					return store.PutRecord(q, &store.Record{Tenant: "t", Principal: "p", Space: "s", Key: key, Fingerprint: "f",
						Status: 201, Body: []byte("{}"), BoundUID: bound, BoundOp: bound, CreatedAt: created.Unix()})
				}); err != nil {
					t.Fatal(err)
				}
			}
			batches := func(n int) {
				for range n {
					j.Request("t", "GET", "read", "/r", "", 200, false)
					j.Flush()
				}
			}
			batches(c.before)
			put("old", "", now.Add(-2*time.Hour))
			put("bound", "op_1", now.Add(-2*time.Hour))
			put("fresh", "", now.Add(-time.Minute))
			batches(c.after)
			var kept []string
			_ = st.Read(context.Background(), func(q store.Q) error {
				for _, k := range []string{"bound", "fresh", "old"} {
					if r, err := store.GetRecord(q, "t", "p", "s", k); err == nil && r != nil {
						kept = append(kept, k)
					}
				}
				return nil
			})
			if strings.Join(kept, ",") != strings.Join(c.wantKeys, ",") {
				t.Fatalf("records kept %v, want %v", kept, c.wantKeys)
			}
		})
	}
}
