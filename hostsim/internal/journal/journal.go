// Package journal is hostsim's event journal (docs/protocol.md#admin): every
// request (method, route, status, tenant), every mutation, fault firing and
// transition step, numbered by a sequence that only increases. The journal
// lives in memory, bounded to the newest MaxEvents: it is what a host did,
// not protocol state. A write transaction's events join it once the
// transaction committed (store.AppendEvent); request events join it as the
// answer goes out, and the request counters they feed are written to the
// store behind the answer, in batches.
package journal

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/takokit/takokit/hostsim/internal/store"
)

// MaxEvents bounds the journal: memory grows with what is stored, not with
// requests served (docs/decisions.md: hostsim speed and memory).
const MaxEvents = 20000

// Event is one journal entry.
type Event struct {
	Seq  int64           `json:"seq"`
	At   string          `json:"at"`
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// kept is an event as the ring holds it (ring.go): its time, its type by
// number and where its data lies in the arena — JSON, or one of the compact
// forms of request.go and mutation.go. Its number follows from its place.
type kept struct {
	at    int64
	chunk uint32 // the arena chunk
	off   uint32
	n     uint32
	typ   uint16
	form  form
}

// Journal is the ring of events, its subscribers and the counter writer.
type Journal struct {
	mu   sync.RWMutex
	ring []kept // a circular buffer of MaxEvents; head is the oldest kept
	head int
	size int
	seq  int64
	// arena holds the data of the kept events; types names event types by number.
	arena   arena
	types   []string
	typeIdx map[string]uint16
	// Retention: records and prepares older than these are purged now and then.
	RecordLife, PrepareLife time.Duration
	st                      *store.Store
	now                     func() time.Time
	subs                    atomic.Pointer[[]chan struct{}] // woken after each append
	smu                     sync.Mutex                      // serializes Subscribe and cancel
	counts                  counters
}

// New starts the journal of st: it receives the events of every committed
// write, and numbers events on from the highest number st remembers.
func New(st *store.Store, now func() time.Time) *Journal {
	j := &Journal{st: st, now: now}
	if c, err := counterValues(st); err == nil {
		j.seq = c[seqCounter]
	}
	j.counts.start(j)
	st.OnEvents(j.committed)
	return j
}

// seqCounter keeps the highest event number in the store, so numbers keep
// increasing across a restart on a --db file.
const seqCounter = "journalSeq"

func counterValues(st *store.Store) (map[string]int64, error) {
	var c map[string]int64
	err := st.Read(context.Background(), func(q store.Q) error {
		var err error
		c, err = store.CounterValues(q)
		return err
	})
	return c, err
}

// Append queues an event in q's write transaction (store.AppendEvent): it
// joins the journal only if the transaction commits. A Mutation or a
// Deletion is queued packed (mutation.go); any other data as its JSON.
func Append(q store.Q, now time.Time, typ string, data any) {
	store.AppendEvent(q, now.UnixNano(), typ, packed(data))
}

// AppendLasting records an event in q's write transaction that tells of an
// effect outside the store already done (a migration file committed in its
// database): the journal keeps it whether q commits or rolls back
// (store.AppendLastingEvent).
func AppendLasting(q store.Q, now time.Time, typ string, data any) {
	store.AppendLastingEvent(q, now.UnixNano(), typ, packed(data))
}

// packed is an event's data as the ring keeps it.
func packed(data any) []byte {
	var b []byte
	switch d := data.(type) {
	case Mutation:
		b = d.pack()
	case Deletion:
		b = d.pack()
	default:
		b, _ = json.Marshal(data)
	}
	return b
}

// Request records one request event (admin routes are not journaled) and
// counts it. key is the Idempotency-Key of a keyed route ("" otherwise): not a
// secret, it shows which requests were one retried request.
func (j *Journal) Request(tenant, method, route, path, key string, status int, support bool) {
	at := j.now().UnixNano()
	j.mu.Lock()
	k := kept{at: at, typ: j.typeOf("request"), form: formRequest}
	packRequest(j.alloc(&k, packedSize(tenant, method, route, path, key)), tenant, method, route, path, key, status)
	j.push(k)
	j.mu.Unlock()
	j.wake()
	j.counts.request(support)
}

// requestEvent is the data of a request event (members in the order a map
// would marshal them).
type requestEvent struct {
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	Method         string `json:"method"`
	Path           string `json:"path"`
	Route          string `json:"route"`
	Status         int    `json:"status"`
	Tenant         string `json:"tenant"`
}

// committed receives the events of a committed write transaction.
func (j *Journal) committed(events []store.Pending) { j.add(events) }

// add numbers events into the ring, drops what exceeds MaxEvents and wakes
// the subscribers.
func (j *Journal) add(events []store.Pending) {
	j.mu.Lock()
	for _, e := range events {
		k := kept{at: e.At, typ: j.typeOf(e.Type)}
		data := e.Data
		if len(data) > 0 && data[0] < ' ' { // a packed form, marked by its first byte
			k.form, data = form(data[0]), data[1:]
		}
		_ = append(j.alloc(&k, len(data)), data...)
		j.push(k)
	}
	j.mu.Unlock()
	j.wake()
}

// push numbers k into the ring (under mu).
func (j *Journal) push(k kept) {
	j.seq++
	if j.size < MaxEvents {
		if len(j.ring) == cap(j.ring) { // grow, but never past MaxEvents
			j.ring = append(make([]kept, 0, min(max(2*cap(j.ring), 256), MaxEvents)), j.ring...)
		}
		j.ring = append(j.ring, k)
		j.size++
		return
	}
	j.ring[j.head] = k // the oldest gives way
	j.head = (j.head + 1) % MaxEvents
	j.arena.release(j.ring[j.head].chunk) // chunks before the oldest kept event's
}

// at is the i-th kept event, oldest first.
func (j *Journal) at(i int) *kept { return &j.ring[(j.head+i)%len(j.ring)] }

// Clear empties the journal (POST /_sim/reset); numbers keep increasing.
func (j *Journal) Clear() {
	j.mu.Lock()
	j.ring, j.head, j.size, j.arena = nil, 0, 0, arena{}
	j.mu.Unlock()
}

// Since returns up to limit events with Seq > after, oldest first, never nil (GET
// /_sim/events answers it as a JSON list). When the first event returned is not
// after+1, the ones between were dropped (the journal keeps the newest MaxEvents).
func (j *Journal) Since(_ context.Context, after int64, limit int) ([]Event, error) {
	j.mu.RLock()
	defer j.mu.RUnlock()
	first := j.seq - int64(j.size) + 1 // the number of the oldest kept event
	i := int(min(max(after-first+1, 0), int64(j.size)))
	out := make([]Event, 0, min(limit, j.size-i))
	for ; i < j.size && len(out) < limit; i++ {
		k := j.at(i)
		out = append(out, Event{Seq: first + int64(i), At: time.Unix(0, k.at).UTC().Format(time.RFC3339Nano),
			Type: j.types[k.typ], Data: k.form.json(j.arena.data(k))})
	}
	return out, nil
}

// Last is the number of the newest event so far (0 before the first); events
// are numbered without gaps, so the newest n are Since(Last()-n, n).
func (j *Journal) Last() int64 {
	j.mu.RLock()
	defer j.mu.RUnlock()
	return j.seq
}

// Flush waits until every request counted so far is written to the store.
func (j *Journal) Flush() { j.counts.flush() }

// Close stops the counter writer after writing what is counted.
func (j *Journal) Close() { j.counts.stop() }
