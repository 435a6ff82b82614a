package journal

import (
	"context"
	"testing"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

func newJournal(t *testing.T) (*Journal, *store.Store) {
	t.Helper()
	st, err := store.Open("")
	if err != nil {
		t.Fatal(err)
	}
	j := New(st, time.Now)
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
