// Package journal is hostsim's event journal (docs/protocol.md#admin): every
// request (method, route, status, tenant), every mutation, fault firing and
// transition step, numbered by a monotonically increasing sequence. Request
// events and the request counters are written behind the answer in batches;
// mutation events are written in the mutation's own transaction (Append).
// Subscribers are woken after every committed write and read what is new.
package journal

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// Journal writes request events and request counters behind the answer, in
// batches, so reads never wait for the writer lock. Flush makes everything
// queued visible.
type Journal struct {
	mu     sync.RWMutex
	closed bool
	// Retention: records and prepares older than these are purged now and then.
	RecordLife, PrepareLife time.Duration
	batches                 int
	st                      *store.Store
	ch                      chan entry
	done                    chan struct{}
	now                     func() time.Time
	subs                    atomic.Pointer[[]chan struct{}] // woken after each committed write
	smu                     sync.Mutex                      // serializes Subscribe and cancel
}

type entry struct {
	typ     string
	data    []byte
	support bool
	counted bool
	flush   chan struct{}
}

// New starts the writer and wakes subscribers after every write st commits.
func New(st *store.Store, now func() time.Time) *Journal {
	j := &Journal{st: st, ch: make(chan entry, 4096), done: make(chan struct{}), now: now}
	st.OnCommit(j.wake)
	go j.run()
	return j
}

// Request queues one request event (admin routes are not journaled here).
func (j *Journal) Request(tenant, method, route, path string, status int, support bool) {
	data, _ := json.Marshal(requestEvent{Method: method, Path: path, Route: route, Status: status, Tenant: tenant})
	j.send(entry{typ: "request", data: data, support: support, counted: true})
}

// requestEvent is the data of a request event (members in the order a map
// would marshal them).
type requestEvent struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Route  string `json:"route"`
	Status int    `json:"status"`
	Tenant string `json:"tenant"`
}

// Event queues a non-request event (fault firings, operation commits).
func (j *Journal) Event(typ string, data any) {
	b, _ := json.Marshal(data)
	j.send(entry{typ: typ, data: b})
}

// Append writes an event inside a caller's transaction.
func Append(q store.Q, now time.Time, typ string, data any) error {
	b, _ := json.Marshal(data)
	return store.AppendEvent(q, now.UTC().Format(time.RFC3339Nano), typ, b)
}

// Flush waits until everything queued so far is written.
func (j *Journal) Flush() {
	f := make(chan struct{})
	if j.send(entry{flush: f}) {
		<-f
	}
}

// Close stops the writer after writing what is queued.
func (j *Journal) Close() {
	j.mu.Lock()
	if !j.closed {
		j.closed = true
		close(j.ch)
	}
	j.mu.Unlock()
	<-j.done
}

// send queues e unless the journal is closed.
func (j *Journal) send(e entry) bool {
	j.mu.RLock()
	defer j.mu.RUnlock()
	if j.closed {
		return false
	}
	j.ch <- e
	return true
}

// run writes queued entries in batches: after the first entry it gathers
// more for up to batchWindow (or until a flush asks), so a steady stream of
// requests costs one write transaction per window rather than one each.
func (j *Journal) run() {
	defer close(j.done)
	for first := range j.ch {
		batch := []entry{first}
		timer := time.NewTimer(batchWindow)
	gather:
		for len(batch) < 512 && first.flush == nil {
			select {
			case e, ok := <-j.ch:
				if !ok {
					break gather
				}
				batch = append(batch, e)
				if e.flush != nil {
					break gather
				}
			case <-timer.C:
				break gather
			}
		}
		timer.Stop()
		j.write(batch)
	}
}

// batchWindow bounds how long a request event waits to be written.
const batchWindow = 20 * time.Millisecond

func (j *Journal) write(batch []entry) {
	var requests, support int64
	_ = j.st.Write(context.Background(), func(tx store.Q) error {
		at := j.now().UTC().Format(time.RFC3339Nano)
		for _, e := range batch {
			if e.flush != nil {
				continue
			}
			if err := store.AppendEvent(tx, at, e.typ, e.data); err != nil {
				return err
			}
			if e.counted {
				requests++
			}
			if e.support {
				support++
			}
		}
		if requests > 0 {
			if err := store.AddCounter(tx, "requests", requests); err != nil {
				return err
			}
		}
		if support > 0 {
			if err := store.AddCounter(tx, "supportReads", support); err != nil {
				return err
			}
		}
		j.batches++
		if j.batches%64 == 1 && j.RecordLife > 0 && j.PrepareLife > 0 {
			now := j.now()
			if err := store.Purge(tx, now.Add(-j.RecordLife).Unix(), now.Add(-j.PrepareLife).Unix()); err != nil {
				return err
			}
		}
		return store.TrimEvents(tx)
	})
	for _, e := range batch {
		if e.flush != nil {
			close(e.flush)
		}
	}
}
