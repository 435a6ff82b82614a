package journal

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// counters writes the request counters behind the answers, in batches: one
// write transaction per batchWindow however many requests arrived, and never
// one a request waits for.
type counters struct {
	j        *Journal
	mu       sync.Mutex
	requests int64
	support  int64
	kick     chan chan struct{} // a flush request, or nil for "write now"
	done     chan struct{}
	closed   bool
	batches  int
	// pending is set by the request that starts a batch and cleared when
	// the batch is taken, so a busy host wakes the writer once per window
	// instead of once per request.
	pending atomic.Bool
}

// batchWindow bounds how long a counted request waits to be written.
const batchWindow = 20 * time.Millisecond

func (c *counters) start(j *Journal) {
	c.j, c.kick, c.done = j, make(chan chan struct{}, 1), make(chan struct{})
	go c.run()
}

func (c *counters) request(support bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	if support {
		c.support++
	}
	if c.closed || !c.pending.CompareAndSwap(false, true) {
		return // closed (nothing writes any more), or a batch is already gathering
	}
	// under mu, so stop cannot close kick in between; the send never blocks
	select {
	case c.kick <- nil:
	default:
	}
}

// flush waits until what is counted so far is written.
func (c *counters) flush() {
	ack := make(chan struct{})
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return // stop wrote everything
		}
		// sent under mu, so stop cannot close kick in between; never blocking there,
		// since the writer takes mu to write what a pending kick asked for
		select {
		case c.kick <- ack:
			c.mu.Unlock()
			<-ack
			return
		default:
		}
		c.mu.Unlock()
		time.Sleep(time.Millisecond) // the writer is taking the kick already there
	}
}

func (c *counters) stop() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	close(c.kick) // under mu: a request sends on kick only under mu, after checking closed
	c.mu.Unlock()
	<-c.done
}

func (c *counters) run() {
	defer close(c.done)
	for {
		ack, ok := <-c.kick
		if !ok {
			c.write()
			return
		}
		if ack == nil {
			// gather what arrives within the window into one write
			t := time.NewTimer(batchWindow)
		gather:
			for {
				select {
				case a, ok := <-c.kick:
					if !ok {
						t.Stop()
						c.write()
						return
					}
					if a != nil {
						ack = a
						break gather
					}
				case <-t.C:
					break gather
				}
			}
			t.Stop()
		}
		c.write()
		if ack != nil {
			close(ack)
		}
	}
}

// write adds the counted requests to the store, with the highest event
// number, and now and then purges what outlived its retention.
func (c *counters) write() {
	c.pending.Store(false)
	c.mu.Lock()
	requests, support := c.requests, c.support
	c.requests, c.support = 0, 0
	c.mu.Unlock()
	j := c.j
	j.mu.RLock()
	seq := j.seq
	j.mu.RUnlock()
	if requests == 0 { // a support read is counted as a request too
		return
	}
	c.batches++
	purge := c.batches%64 == 1 && j.RecordLife > 0 && j.PrepareLife > 0
	_ = j.st.Write(context.Background(), func(tx store.Q) error {
		if err := store.AddCounter(tx, "requests", requests); err != nil {
			return err
		}
		if support > 0 {
			if err := store.AddCounter(tx, "supportReads", support); err != nil {
				return err
			}
		}
		if err := store.SetCounter(tx, seqCounter, seq); err != nil {
			return err
		}
		if purge {
			now := j.now()
			return store.Purge(tx, now.Add(-j.RecordLife).Unix(), now.Add(-j.PrepareLife).Unix())
		}
		return nil
	})
}
