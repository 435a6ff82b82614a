package journal

import (
	"context"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// Event is one journal entry; Seq increases monotonically and is never reused.
type Event = store.Event

// Subscribe returns a channel that receives a signal after writes that may
// have added events, and a cancel function. Signals coalesce: a subscriber
// that has not taken the last one misses nothing but the duplicate, and a
// writer never waits for a subscriber (a slow one reads later, from Since).
func (j *Journal) Subscribe() (wake <-chan struct{}, cancel func()) {
	ch := make(chan struct{}, 1)
	j.smu.Lock()
	defer j.smu.Unlock()
	var cur []chan struct{}
	if p := j.subs.Load(); p != nil {
		cur = *p
	}
	next := append(append([]chan struct{}(nil), cur...), ch)
	j.subs.Store(&next)
	return ch, func() {
		j.smu.Lock()
		defer j.smu.Unlock()
		p := j.subs.Load()
		if p == nil {
			return
		}
		keep := make([]chan struct{}, 0, len(*p))
		for _, c := range *p {
			if c != ch {
				keep = append(keep, c)
			}
		}
		j.subs.Store(&keep)
	}
}

// wake signals every subscriber without blocking.
func (j *Journal) wake() {
	p := j.subs.Load()
	if p == nil {
		return
	}
	for _, c := range *p {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// Since returns up to limit events with Seq > after, oldest first. The
// journal keeps the newest store.MaxEvents; when the first event returned is
// not after+1, the ones between were trimmed (a subscriber that fell that far
// behind resumes at the oldest kept).
func (j *Journal) Since(ctx context.Context, after int64, limit int) ([]Event, error) {
	var out []Event
	err := j.st.Read(ctx, func(q store.Q) error {
		var err error
		out, err = store.EventsSince(q, after, limit)
		return err
	})
	return out, err
}
