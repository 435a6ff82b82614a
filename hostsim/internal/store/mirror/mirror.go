// Package mirror is the store's write-through copy in memory of what
// requests look up by key: every live resource (by address and by uid),
// every pin (by source), how many pins name each target, which idempotency
// records exist, when each prepareDigest was minted, and the dictionaries of
// recorded answers (docs/decisions.md: hostsim speed).
//
// SQLite stays the truth: the store writes every change to SQLite inside its
// write transaction, and the mirror learns of it only when that transaction
// commits. Until then the transaction's changes sit in its Overlay, which its
// own View sees first; a rollback drops the overlay. The store makes readers
// and commits take turns, so a reader sees the mirror and SQLite agree.
//
// Records and prepares are mirrored by 128-bit key hashes. On a database
// file a record's body stays in SQLite: a lookup of a key the mirror lacks
// needs no query, one it holds reads the row. On the in-memory database the
// mirror alone keeps records, prepares and counters (KeepAlone;
// docs/decisions.md, "records on the in-memory database"). The mirror knows nothing of SQL or of
// Forms: it holds the store's resource rows R and pin rows P, and reads of
// them only what New's two functions give.
package mirror

import (
	"hash/maphash"

	"github.com/takokit/takokit/hostsim/internal/store/bodycodec"
)

// Addr is where a resource lives.
type Addr struct{ Tenant, Space, APIVersion, Kind, Name string }

// Target is the name a pin names (apiVersion, kind, name).
type Target struct{ APIVersion, Kind, Name string }

type kindKey struct{ tenant, space, kind string }

// spaceTarget is a target name as pinned from a (tenant, space).
type spaceTarget struct {
	tenant, space string
	t             Target
}

// Key is a 128-bit hash of a record's or a prepare's key (Mirror.Hash).
type Key [2]uint64

// Record is what the mirror keeps of an idempotency record: when it was
// created (At) and the operation it waits on ("" for none), the two a purge
// and a rebind select by, and on the in-memory database the record itself as
// the store packed it (Row; nil when its row is in SQLite).
type Record struct {
	Row []byte
	At  int64
	Op  string
}

// Mirror holds the committed state of resources R and pins P.
type Mirror[R, P any] struct {
	addrOf   func(*R) Addr
	targetOf func(P) (uid string, name Target)
	res      map[Addr]*R
	uid      map[string]*R
	pins     map[string][]P // by source uid, in the order the store gave
	pinUID   map[string]int // pins naming a target uid
	pinName  map[Target]int // pins naming a target name
	// the sources whose pins name a target uid; the live sources of a
	// (tenant, space) whose pins name a target name; the live resources of a
	// (tenant, space, kind), whose number is the kind's count: what a mutation
	// re-renders (store.Affected, store.PinsTo), answered without a query
	srcUID   map[string]map[string]struct{}
	srcName  map[spaceTarget]map[string]struct{}
	ofKind   map[kindKey]map[string]struct{}
	records  map[Key]Record
	waiting  map[string]map[Key]struct{} // records by the operation they wait on
	prepares map[Key]int64               // minted_at
	counters map[string]int64            // only when alone
	dicts    bodycodec.Set               // never emptied
	alone    bool                        // the only copy of records, prepares and counters
	seeds    [2]maphash.Seed
}

// New is an empty mirror; addrOf reads a resource's address, targetOf what
// a pin names.
func New[R, P any](addrOf func(*R) Addr, targetOf func(P) (uid string, name Target)) *Mirror[R, P] {
	m := &Mirror[R, P]{addrOf: addrOf, targetOf: targetOf, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
	m.clear()
	return m
}

// Empty is a new mirror that reads rows and hashes keys as m does.
func (m *Mirror[R, P]) Empty() *Mirror[R, P] {
	e := &Mirror[R, P]{addrOf: m.addrOf, targetOf: m.targetOf, seeds: m.seeds, alone: m.alone}
	e.clear()
	return e
}

func (m *Mirror[R, P]) clear() {
	m.res, m.uid = map[Addr]*R{}, map[string]*R{}
	m.pins, m.pinUID, m.pinName = map[string][]P{}, map[string]int{}, map[Target]int{}
	m.srcUID, m.srcName, m.ofKind = map[string]map[string]struct{}{}, map[spaceTarget]map[string]struct{}{}, map[kindKey]map[string]struct{}{}
	m.records, m.waiting, m.prepares = map[Key]Record{}, map[string]map[Key]struct{}{}, map[Key]int64{}
	m.counters = map[string]int64{}
}

// KeepAlone makes m the only copy of records, prepares and counters (the
// in-memory database); a new mirror only mirrors.
func (m *Mirror[R, P]) KeepAlone() { m.alone = true }

// Hash is the key of a record or a prepare made of parts.
func (m *Mirror[R, P]) Hash(parts ...string) Key {
	var k Key
	for i, seed := range m.seeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, p := range parts {
			h.WriteString(p)
			h.WriteByte(0)
		}
		k[i] = h.Sum64()
	}
	return k
}

// Counts is how much a mirror holds.
type Counts struct{ Resources, PinSources, Records, Prepares, Dicts int }

// Len counts what m holds.
func (m *Mirror[R, P]) Len() Counts {
	return Counts{len(m.uid), len(m.pins), len(m.records), len(m.prepares), m.dicts.Len()}
}

// Overlay is the open write transaction's changes to the mirror.
type Overlay[R, P any] struct {
	reset      bool          // every table was emptied first
	purged     int64         // prepares minted before this are gone (0: none purged)
	recsPurged int64         // records created before this and waiting on no operation are gone (0: none purged)
	res        map[Addr]*R   // nil: deleted
	uid        map[string]*R // nil: deleted
	pins       map[string][]P
	records    map[Key]*Record // nil: dropped
	prepares   map[Key]int64
	counters   map[string]counter
	dicts      bodycodec.Set   // dictionaries created in the transaction
	kinds      map[kindKey]int // count deltas
	pinUID     map[string]int
	pinName    map[Target]int
}

// NewOverlay is an empty overlay (a writer keeps one and clears it).
func NewOverlay[R, P any]() *Overlay[R, P] {
	return &Overlay[R, P]{res: map[Addr]*R{}, uid: map[string]*R{}, pins: map[string][]P{},
		records: map[Key]*Record{}, prepares: map[Key]int64{}, counters: map[string]counter{}, kinds: map[kindKey]int{}, pinUID: map[string]int{},
		pinName: map[Target]int{}}
}

// Clear empties the overlay for the next transaction.
func (o *Overlay[R, P]) Clear() {
	o.reset, o.purged, o.recsPurged = false, 0, 0
	clear(o.res)
	clear(o.uid)
	clear(o.pins)
	clear(o.records)
	clear(o.prepares)
	clear(o.counters)
	o.dicts = bodycodec.Set{}
	clear(o.kinds)
	clear(o.pinUID)
	clear(o.pinName)
}

// Apply makes a committed overlay part of the mirror.
func (m *Mirror[R, P]) Apply(o *Overlay[R, P]) {
	if o.reset {
		m.clear()
	}
	if o.purged != 0 {
		for h, at := range m.prepares {
			if at < o.purged {
				delete(m.prepares, h)
			}
		}
	}
	// the name index is a function of the live resources and their pins:
	// every uid whose resource or pins change leaves it before and joins it after
	for uid := range o.uid {
		m.indexNames(uid, unindex)
	}
	for src := range o.pins {
		m.indexNames(src, unindex)
	}
	for uid := range o.uid { // first every old address goes, then the new ones come
		if old := m.uid[uid]; old != nil {
			a := m.addrOf(old)
			delete(m.res, a)
			delete(m.uid, uid)
			unindex(m.ofKind, kindKey{a.Tenant, a.Space, a.Kind}, uid)
		}
	}
	for uid, r := range o.uid {
		if r != nil {
			a := m.addrOf(r)
			m.uid[uid] = r
			m.res[a] = r
			index(m.ofKind, kindKey{a.Tenant, a.Space, a.Kind}, uid)
		}
	}
	for src, p := range o.pins {
		for _, old := range m.pins[src] {
			uid, _ := m.targetOf(old)
			unindex(m.srcUID, uid, src)
		}
		if p == nil {
			delete(m.pins, src)
			continue
		}
		m.pins[src] = p
		for _, pin := range p {
			uid, _ := m.targetOf(pin)
			index(m.srcUID, uid, src)
		}
	}
	for uid := range o.uid {
		m.indexNames(uid, index)
	}
	for src := range o.pins {
		m.indexNames(src, index)
	}
	addCounts(m.pinUID, o.pinUID)
	addCounts(m.pinName, o.pinName)
	if o.recsPurged != 0 {
		for h, r := range m.records {
			if purgedRecord(r, o.recsPurged) {
				delete(m.records, h)
			}
		}
	}
	for h, r := range o.records {
		if old, ok := m.records[h]; ok && old.Op != "" {
			delete(m.waiting[old.Op], h)
			if len(m.waiting[old.Op]) == 0 {
				delete(m.waiting, old.Op)
			}
		}
		if r == nil {
			delete(m.records, h)
			continue
		}
		m.records[h] = *r
		if r.Op != "" {
			if m.waiting[r.Op] == nil {
				m.waiting[r.Op] = map[Key]struct{}{}
			}
			m.waiting[r.Op][h] = struct{}{}
		}
	}
	for h, at := range o.prepares {
		if at < 0 {
			delete(m.prepares, h)
		} else {
			m.prepares[h] = at
		}
	}
	for name, c := range o.counters {
		if c.set {
			m.counters[name] = c.v
		} else {
			m.counters[name] += c.v
		}
	}
	for d := range o.dicts.All() {
		m.dicts.Add(d)
	}
}

// indexNames adds (or, with unindex, removes) src under each name its pins
// name in its resource's (tenant, space), when that resource is live.
func (m *Mirror[R, P]) indexNames(src string, op func(map[spaceTarget]map[string]struct{}, spaceTarget, string)) {
	r := m.uid[src]
	if r == nil {
		return
	}
	a := m.addrOf(r)
	for _, p := range m.pins[src] {
		_, name := m.targetOf(p)
		op(m.srcName, spaceTarget{a.Tenant, a.Space, name}, src)
	}
}

// index adds member to the set of k.
func index[K comparable](sets map[K]map[string]struct{}, k K, member string) {
	set := sets[k]
	if set == nil {
		set = map[string]struct{}{}
		sets[k] = set
	}
	set[member] = struct{}{}
}

// unindex removes member from the set of k, and the set once empty.
func unindex[K comparable](sets map[K]map[string]struct{}, k K, member string) {
	if set := sets[k]; set != nil {
		delete(set, member)
		if len(set) == 0 {
			delete(sets, k)
		}
	}
}

// counter is a transaction's change to a counter: set to v, or v added.
type counter struct {
	set bool
	v   int64
}

func addCounts[K comparable](dst, delta map[K]int) {
	for k, d := range delta {
		if n := dst[k] + d; n != 0 {
			dst[k] = n
		} else {
			delete(dst, k)
		}
	}
}
