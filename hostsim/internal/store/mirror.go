package store

import (
	"hash/maphash"
	"sort"

	"github.com/takokit/takokit/hostsim/internal/store/bodycodec"
)

// The mirror is a write-through copy in memory of what requests look up by
// key: every live resource (by address and by uid), every pin (by source),
// how many pins name each target, which idempotency records exist and when
// each prepareDigest was minted. SQLite stays the truth: every write still
// goes to SQLite inside its write transaction, and the mirror learns of it
// only when that transaction commits. Until then the transaction's changes
// sit in its overlay, which its own lookups see first; a rollback drops the
// overlay. Readers hold Store.rw while they look, and a commit applies its
// overlay under the same lock, so a reader sees the mirror and SQLite agree.
// A Store opened on a --db file loads the mirror from it (docs/decisions.md:
// hostsim speed).
//
// Records are mirrored as a set of 128-bit key hashes (their bodies stay in
// SQLite): a lookup of a key the set lacks needs no query, one it holds reads
// the record. Lookups the mirror cannot answer run their query, inside the
// same transaction as before.
type mirror struct {
	res      map[resKey]*Resource
	uid      map[string]*Resource
	kinds    map[kindKey]int  // live resources per (tenant, space, kind)
	pins     map[string][]Pin // by source uid, in pointer order
	pinUID   map[string]int   // pins naming a target uid
	pinName  map[nameKey]int  // pins naming a target name (apiVersion, kind, name)
	records  map[hkey]struct{}
	prepares map[hkey]int64 // minted_at
	dicts    bodycodec.Set  // the dictionaries of recorded answers (never emptied)
	seeds    [2]maphash.Seed
}

type resKey struct{ tenant, space, apiVersion, kind, name string }
type kindKey struct{ tenant, space, kind string }
type nameKey struct{ apiVersion, kind, name string }

// hkey is a 128-bit hash of a record's or a prepare's key.
type hkey [2]uint64

func newMirror() *mirror {
	m := &mirror{seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}}
	m.clear()
	return m
}

func (m *mirror) clear() {
	m.res, m.uid, m.kinds = map[resKey]*Resource{}, map[string]*Resource{}, map[kindKey]int{}
	m.pins, m.pinUID, m.pinName = map[string][]Pin{}, map[string]int{}, map[nameKey]int{}
	m.records, m.prepares = map[hkey]struct{}{}, map[hkey]int64{}
}

func (m *mirror) hash(parts ...string) hkey {
	var k hkey
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

func keyOf(r *Resource) resKey { return resKey{r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name} }

// overlay is the open write transaction's changes to the mirror.
type overlay struct {
	reset    bool                 // every table was emptied first
	purged   int64                // prepares minted before this are gone (0: none purged)
	res      map[resKey]*Resource // nil: deleted
	uid      map[string]*Resource // nil: deleted
	pins     map[string][]Pin     // present with nil: the source holds none
	records  map[hkey]bool        // true: stored, false: dropped
	prepares map[hkey]int64
	dicts    bodycodec.Set   // dictionaries created in the transaction
	kinds    map[kindKey]int // count deltas
	pinUID   map[string]int
	pinName  map[nameKey]int
}

func newOverlay() *overlay {
	return &overlay{res: map[resKey]*Resource{}, uid: map[string]*Resource{}, pins: map[string][]Pin{},
		records: map[hkey]bool{}, prepares: map[hkey]int64{}, kinds: map[kindKey]int{}, pinUID: map[string]int{},
		pinName: map[nameKey]int{}}
}

// clear empties the overlay for the next transaction (the writer keeps one).
func (o *overlay) clear() {
	o.reset, o.purged = false, 0
	clear(o.res)
	clear(o.uid)
	clear(o.pins)
	clear(o.records)
	clear(o.prepares)
	o.dicts = bodycodec.Set{}
	clear(o.kinds)
	clear(o.pinUID)
	clear(o.pinName)
}

// emptied is ResetTables in the open transaction: what it changed so far
// is gone with everything else.
func (o *overlay) emptied() {
	o.clear()
	o.reset = true
}

// view is the mirror as a transaction sees it: its overlay (nil for a
// reader) over the committed mirror.
type view struct {
	m  *mirror
	ov *overlay
}

// viewOf returns the view of a Store's Q; ok is false for any other Q, whose
// lookups then run their queries.
func viewOf(q Q) (view, bool) {
	switch x := q.(type) {
	case writeQ:
		return view{x.w.m, x.w.ov}, x.w.m != nil
	case poolQ:
		return view{m: x.m}, x.m != nil
	case txQ:
		return view{m: x.m}, x.m != nil
	}
	return view{}, false
}

// resource returns the stored resource at an address (nil: none). The
// result is the mirror's own: copy it before handing it out.
func (v view) resource(k resKey) *Resource {
	if v.ov != nil {
		if r, ok := v.ov.res[k]; ok {
			return r
		}
		if v.ov.reset {
			return nil
		}
	}
	return v.m.res[k]
}

func (v view) byUID(uid string) *Resource {
	if v.ov != nil {
		if r, ok := v.ov.uid[uid]; ok {
			return r
		}
		if v.ov.reset {
			return nil
		}
	}
	return v.m.uid[uid]
}

func (v view) kindCount(k kindKey) int {
	n := 0
	if v.ov == nil || !v.ov.reset {
		n = v.m.kinds[k]
	}
	if v.ov != nil {
		n += v.ov.kinds[k]
	}
	return n
}

func (v view) pinsOf(source string) []Pin {
	if v.ov != nil {
		if p, ok := v.ov.pins[source]; ok {
			return p
		}
		if v.ov.reset {
			return nil
		}
	}
	return v.m.pins[source]
}

func (v view) pinsNamingUID(uid string) int {
	n := 0
	if v.ov == nil || !v.ov.reset {
		n = v.m.pinUID[uid]
	}
	if v.ov != nil {
		n += v.ov.pinUID[uid]
	}
	return n
}

func (v view) pinsNamingName(k nameKey) int {
	n := 0
	if v.ov == nil || !v.ov.reset {
		n = v.m.pinName[k]
	}
	if v.ov != nil {
		n += v.ov.pinName[k]
	}
	return n
}

func (v view) hasRecord(h hkey) bool {
	if v.ov != nil {
		if in, ok := v.ov.records[h]; ok {
			return in
		}
		if v.ov.reset {
			return false
		}
	}
	_, ok := v.m.records[h]
	return ok
}

func (v view) prepare(h hkey) (int64, bool) {
	if v.ov != nil {
		if at, ok := v.ov.prepares[h]; ok {
			if at < 0 {
				return 0, false
			}
			return at, true
		}
		if v.ov.reset {
			return 0, false
		}
	}
	at, ok := v.m.prepares[h]
	if ok && v.ov != nil && at < v.ov.purged {
		return 0, false
	}
	return at, ok
}

// Changes, recorded in the overlay once their statement succeeded.

// setResource records r (a private copy) as the resource at its address and
// uid, or removes the resource of uid when r is nil.
func (v view) setResource(uid string, r *Resource) {
	if old := v.byUID(uid); old != nil {
		v.ov.res[keyOf(old)] = nil
		v.ov.kinds[kindKey{old.Tenant, old.Space, old.Kind}]--
	}
	v.ov.uid[uid] = r
	if r != nil {
		v.ov.res[keyOf(r)] = r
		v.ov.kinds[kindKey{r.Tenant, r.Space, r.Kind}]++
	}
}

// setPins records the pins a source holds (sorted by pointer, as stored).
func (v view) setPins(source string, pins []Pin) {
	for _, p := range v.pinsOf(source) {
		v.ov.pinUID[p.TargetUID]--
		v.ov.pinName[nameKey{p.TargetAPIVersion, p.TargetKind, p.TargetName}]--
	}
	if len(pins) == 0 {
		v.ov.pins[source] = nil
		return
	}
	s := append([]Pin(nil), pins...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Pointer < s[j].Pointer })
	v.ov.pins[source] = s
	for _, p := range s {
		v.ov.pinUID[p.TargetUID]++
		v.ov.pinName[nameKey{p.TargetAPIVersion, p.TargetKind, p.TargetName}]++
	}
}

func (v view) setRecord(h hkey, stored bool) { v.ov.records[h] = stored }

// setPrepare records a mint (at >= 0) or a removal (at < 0).
func (v view) setPrepare(h hkey, at int64) { v.ov.prepares[h] = at }

// apply makes a committed overlay part of the mirror.
func (m *mirror) apply(o *overlay) {
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
	for uid := range o.uid { // first every old address goes, then the new ones come
		if old := m.uid[uid]; old != nil {
			delete(m.res, keyOf(old))
			delete(m.uid, uid)
		}
	}
	for uid, r := range o.uid {
		if r != nil {
			m.uid[uid] = r
			m.res[keyOf(r)] = r
		}
	}
	for src, p := range o.pins {
		if p == nil {
			delete(m.pins, src)
		} else {
			m.pins[src] = p
		}
	}
	addCounts(m.kinds, o.kinds)
	addCounts(m.pinUID, o.pinUID)
	addCounts(m.pinName, o.pinName)
	for h, in := range o.records {
		if in {
			m.records[h] = struct{}{}
		} else {
			delete(m.records, h)
		}
	}
	for h, at := range o.prepares {
		if at < 0 {
			delete(m.prepares, h)
		} else {
			m.prepares[h] = at
		}
	}
	for d := range o.dicts.All() {
		m.dicts.Add(d)
	}
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

// mayAffect: a pin names (apiVersion, kind, name) or (tenant, space) holds a
// resource of one of workerKinds (Affected's two sources).
func (v view) mayAffect(tenant, space, apiVersion, kind, name string, workerKinds []string) bool {
	if v.pinsNamingName(nameKey{apiVersion, kind, name}) > 0 {
		return true
	}
	for _, k := range workerKinds {
		if v.kindCount(kindKey{tenant, space, k}) > 0 {
			return true
		}
	}
	return false
}
