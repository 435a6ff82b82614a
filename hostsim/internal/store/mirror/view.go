package mirror

import (
	"slices"

	"github.com/takokit/takokit/hostsim/internal/store/bodycodec"
)

// View is the mirror as a transaction sees it: its overlay (nil for a
// reader) over the committed mirror. Lookups hand out the mirror's own rows:
// the caller copies them before handing them on.
type View[R, P any] struct {
	m  *Mirror[R, P]
	ov *Overlay[R, P]
}

// View is m as seen by the transaction whose changes ov holds (nil: a reader).
func (m *Mirror[R, P]) View(ov *Overlay[R, P]) View[R, P] { return View[R, P]{m, ov} }

// Writing reports whether the view belongs to a write transaction.
func (v View[R, P]) Writing() bool { return v.ov != nil }

// Hash is Mirror.Hash.
func (v View[R, P]) Hash(parts ...string) Key { return v.m.Hash(parts...) }

// Resource is the resource at an address, or nil.
func (v View[R, P]) Resource(a Addr) *R {
	if v.ov != nil {
		if r, ok := v.ov.res[a]; ok {
			return r
		}
		if v.ov.reset {
			return nil
		}
	}
	return v.m.res[a]
}

// ByUID is the live resource with uid, or nil.
func (v View[R, P]) ByUID(uid string) *R {
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

func (v View[R, P]) kindCount(k kindKey) int {
	n := 0
	if v.ov == nil || !v.ov.reset {
		n = len(v.m.ofKind[k])
	}
	if v.ov != nil {
		n += v.ov.kinds[k]
	}
	return n
}

// PinsOf is the pins source holds.
func (v View[R, P]) PinsOf(source string) []P {
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

// PinsNamingUID counts the pins naming the target uid.
func (v View[R, P]) PinsNamingUID(uid string) int {
	return count(v, v.m.pinUID, uid, func(o *Overlay[R, P]) map[string]int { return o.pinUID })
}

// PinsNamingName counts the pins naming the target name.
func (v View[R, P]) PinsNamingName(t Target) int {
	return count(v, v.m.pinName, t, func(o *Overlay[R, P]) map[Target]int { return o.pinName })
}

// SourcesNamingUID is every source whose pins name the target uid, each once,
// in no order.
func (v View[R, P]) SourcesNamingUID(uid string) []string {
	out := untouched(v, v.m.srcUID[uid], func(src string) bool { _, changed := v.ov.pins[src]; return changed })
	if v.ov != nil {
		names := func(p P) bool { u, _ := v.m.targetOf(p); return u == uid }
		for src, pins := range v.ov.pins {
			if slices.ContainsFunc(pins, names) {
				out = append(out, src)
			}
		}
	}
	return out
}

// SourcesNamingName is every source live in (tenant, space) whose pins name
// the target name, each once, in no order.
func (v View[R, P]) SourcesNamingName(tenant, space string, t Target) []string {
	out := untouched(v, v.m.srcName[spaceTarget{tenant, space, t}], v.touched)
	if v.ov == nil {
		return out
	}
	names := func(p P) bool { _, n := v.m.targetOf(p); return n == t }
	check := func(src string) { // a source the transaction touched, as it now is
		if r := v.ByUID(src); r != nil {
			if a := v.m.addrOf(r); a.Tenant == tenant && a.Space == space && slices.ContainsFunc(v.PinsOf(src), names) {
				out = append(out, src)
			}
		}
	}
	for src := range v.ov.pins {
		check(src)
	}
	for uid := range v.ov.uid {
		if _, checked := v.ov.pins[uid]; !checked {
			check(uid)
		}
	}
	return out
}

// untouched is the members of a committed set (none after a reset) whose rows
// the transaction left as they were (touched asks, inside a transaction).
func untouched[R, P any](v View[R, P], committed map[string]struct{}, touched func(string) bool) []string {
	if v.ov != nil && v.ov.reset {
		return nil
	}
	var out []string
	for m := range committed {
		if v.ov == nil || !touched(m) {
			out = append(out, m)
		}
	}
	return out
}

// touched reports whether the transaction changed src's resource or pins.
func (v View[R, P]) touched(src string) bool {
	if v.ov == nil {
		return false
	}
	_, pins := v.ov.pins[src]
	_, res := v.ov.uid[src]
	return pins || res
}

// OfKind is the uid of every live resource of kind in (tenant, space), in no order.
func (v View[R, P]) OfKind(tenant, space, kind string) []string {
	out := untouched(v, v.m.ofKind[kindKey{tenant, space, kind}], func(uid string) bool { _, changed := v.ov.uid[uid]; return changed })
	if v.ov != nil {
		for uid, r := range v.ov.uid {
			if r != nil {
				if a := v.m.addrOf(r); a.Tenant == tenant && a.Space == space && a.Kind == kind {
					out = append(out, uid)
				}
			}
		}
	}
	return out
}

// count is a committed count (none after a reset) plus the overlay's delta.
func count[R, P any, K comparable](v View[R, P], committed map[K]int, k K, delta func(*Overlay[R, P]) map[K]int) int {
	n := 0
	if v.ov == nil || !v.ov.reset {
		n = committed[k]
	}
	if v.ov != nil {
		n += delta(v.ov)[k]
	}
	return n
}

// Record is the record of key h, if it exists.
func (v View[R, P]) Record(h Key) (Record, bool) {
	if v.ov != nil {
		if r, ok := v.ov.records[h]; ok {
			if r == nil {
				return Record{}, false
			}
			return *r, true
		}
		if v.ov.reset {
			return Record{}, false
		}
	}
	r, ok := v.m.records[h]
	if ok && v.ov != nil && purgedRecord(r, v.ov.recsPurged) {
		return Record{}, false
	}
	return r, ok
}

// HasRecord reports whether the record of key h exists.
func (v View[R, P]) HasRecord(h Key) bool {
	_, ok := v.Record(h)
	return ok
}

// Waiting is the keys of the records that wait on operation op.
func (v View[R, P]) Waiting(op string) []Key {
	var keys []Key
	if v.ov != nil {
		for h, r := range v.ov.records {
			if r != nil && r.Op == op {
				keys = append(keys, h)
			}
		}
		if v.ov.reset {
			return keys
		}
	}
	for h := range v.m.waiting[op] {
		if v.ov != nil {
			if _, changed := v.ov.records[h]; changed {
				continue
			}
		}
		keys = append(keys, h)
	}
	return keys
}

// purgedRecord reports whether a purge of the records created before
// `before` (0: none) takes r: one waiting on an operation stays.
func purgedRecord(r Record, before int64) bool { return r.Op == "" && r.At < before }

// Prepare is when the prepare of key h was minted, if it exists.
func (v View[R, P]) Prepare(h Key) (int64, bool) {
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

// DictByShape is the dictionary of shape the transaction or the mirror knows.
func (v View[R, P]) DictByShape(shape []byte) *bodycodec.Dict {
	if v.ov != nil {
		if d := v.ov.dicts.ByShape(shape); d != nil {
			return d
		}
	}
	return v.m.dicts.ByShape(shape)
}

// DictByID is the dictionary of id the transaction or the mirror knows.
func (v View[R, P]) DictByID(id int64) *bodycodec.Dict {
	if v.ov != nil {
		if d := v.ov.dicts.ByID(id); d != nil {
			return d
		}
	}
	return v.m.dicts.ByID(id)
}

// Dicts counts the dictionaries the transaction and the mirror know.
func (v View[R, P]) Dicts() int {
	n := v.m.dicts.Len()
	if v.ov != nil {
		n += v.ov.dicts.Len()
	}
	return n
}

// MayAffect reports whether a pin names t or (tenant, space) holds a
// resource of one of workerKinds.
func (v View[R, P]) MayAffect(tenant, space string, t Target, workerKinds []string) bool {
	if v.PinsNamingName(t) > 0 {
		return true
	}
	for _, k := range workerKinds {
		if v.kindCount(kindKey{tenant, space, k}) > 0 {
			return true
		}
	}
	return false
}

// Changes, which a write transaction's view records in its overlay once their
// statement succeeded.

// SetResource records r (a private copy) as the resource at its address and
// uid, or removes the resource of uid when r is nil.
func (v View[R, P]) SetResource(uid string, r *R) {
	if old := v.ByUID(uid); old != nil {
		a := v.m.addrOf(old)
		v.ov.res[a] = nil
		v.ov.kinds[kindKey{a.Tenant, a.Space, a.Kind}]--
	}
	v.ov.uid[uid] = r
	if r != nil {
		a := v.m.addrOf(r)
		v.ov.res[a] = r
		v.ov.kinds[kindKey{a.Tenant, a.Space, a.Kind}]++
	}
}

// SetPins records the pins a source holds, in the order lookups return them;
// the mirror keeps the slice.
func (v View[R, P]) SetPins(source string, pins []P) {
	for _, p := range v.PinsOf(source) {
		uid, name := v.m.targetOf(p)
		v.ov.pinUID[uid]--
		v.ov.pinName[name]--
	}
	if len(pins) == 0 {
		v.ov.pins[source] = nil
		return
	}
	v.ov.pins[source] = pins
	for _, p := range pins {
		uid, name := v.m.targetOf(p)
		v.ov.pinUID[uid]++
		v.ov.pinName[name]++
	}
}

// SetRecord records that the record of key h is stored as r, or dropped
// when r is nil; the mirror keeps r.Row.
func (v View[R, P]) SetRecord(h Key, r *Record) { v.ov.records[h] = r }

// PurgeRecords records that every record created before `before` and
// waiting on no operation is gone.
func (v View[R, P]) PurgeRecords(before int64) {
	v.ov.recsPurged = max(v.ov.recsPurged, before)
	for h, r := range v.ov.records {
		if r != nil && purgedRecord(*r, before) {
			v.ov.records[h] = nil
		}
	}
}

// SetPrepare records a mint (at >= 0) or a removal (at < 0).
func (v View[R, P]) SetPrepare(h Key, at int64) { v.ov.prepares[h] = at }

// PurgePrepares records that every prepare minted before `before` is gone.
func (v View[R, P]) PurgePrepares(before int64) {
	v.ov.purged = max(v.ov.purged, before)
	for h, at := range v.ov.prepares {
		if at >= 0 && at < before {
			v.ov.prepares[h] = -1
		}
	}
}

// Alone reports whether the mirror is the only copy of records, prepares
// and counters (KeepAlone).
func (v View[R, P]) Alone() bool { return v.m.alone }

// Counters is every counter the mirror keeps (a copy), with the
// transaction's changes.
func (v View[R, P]) Counters() map[string]int64 {
	out := map[string]int64{}
	if v.ov == nil || !v.ov.reset {
		for name, n := range v.m.counters {
			out[name] = n
		}
	}
	if v.ov != nil {
		for name, c := range v.ov.counters {
			if c.set {
				out[name] = c.v
			} else {
				out[name] += c.v
			}
		}
	}
	return out
}

// AddCounter records that delta is added to a counter.
func (v View[R, P]) AddCounter(name string, delta int64) {
	c := v.ov.counters[name]
	c.v += delta
	v.ov.counters[name] = c
}

// SetCounter records that a counter is set to n.
func (v View[R, P]) SetCounter(name string, n int64) { v.ov.counters[name] = counter{set: true, v: n} }

// AddDict records a dictionary the transaction created.
func (v View[R, P]) AddDict(d *bodycodec.Dict) { v.ov.dicts.Add(d) }

// Reset records that the transaction emptied every table of protocol state:
// what it changed so far is gone with everything else, but for the
// dictionaries it created, which a reset leaves in SQLite as it leaves the
// committed ones.
func (v View[R, P]) Reset() {
	dicts := v.ov.dicts
	v.ov.Clear()
	v.ov.reset, v.ov.dicts = true, dicts
}
