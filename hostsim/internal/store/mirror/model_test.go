package mirror

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/takokit/takokit/hostsim/internal/store/bodycodec"
)

// world is what the mirror stands for, kept the plain way: the rows
// themselves, with every lookup answered by a walk over them.
type world struct {
	res      map[string]Addr  // live resources by uid
	pins     map[string][]pin // by source, in the order set
	records  map[Key]Record
	prepares map[Key]int64
	counters map[string]int64
	dicts    map[int64][]byte // never emptied, not even by a reset
}

func newWorld() world {
	return world{map[string]Addr{}, map[string][]pin{}, map[Key]Record{}, map[Key]int64{}, map[string]int64{}, map[int64][]byte{}}
}

func (w world) clone() world {
	return world{maps.Clone(w.res), maps.Clone(w.pins), maps.Clone(w.records), maps.Clone(w.prepares), maps.Clone(w.counters), maps.Clone(w.dicts)}
}

// the names a random world draws from
var (
	modelTenants = []string{"t1", "t2"}
	modelSpaces  = []string{"s1", "s2"}
	modelKinds   = []string{"Worker", "Kv"}
	modelUIDs    = []string{"u0", "u1", "u2", "u3", "u4", "u5"}
	modelTargets = []string{"u0", "u1", "x0", "x1"} // uids a pin may name, live or not
	modelNames   = []Target{{"g/v1", "Kv", "n0"}, {"g/v1", "Kv", "n1"}, {"g/v1", "Kv", "n2"}}
	modelOps     = []string{"", "op1", "op2"}
	modelCounts  = []string{"c0", "c1"}
)

func dictBody(id int64) []byte {
	return fmt.Appendf(nil, `{"apiVersion":"g/v1","kind":"K%d","metadata":{"name":"`, id)
}

// Every lookup of the mirror, as a write transaction sees it and as a reader
// does, answers what the plain world answers, through random transactions that
// commit or roll back; and each committed mirror equals one built afresh from
// its world.
func TestMirrorAnswersAsItsWorld(t *testing.T) {
	for seed := range uint64(150) {
		rng := rand.New(rand.NewPCG(seed, 7))
		m := newTest()
		ov := NewOverlay[row, pin]()
		committed, tx := newWorld(), newWorld()
		nextDict := int64(1)
		var log []string
		for step := range 60 {
			v := m.View(ov)
			what := ""
			switch r := rng.IntN(100); {
			case r < 22:
				uid := modelUIDs[rng.IntN(len(modelUIDs))]
				if rng.IntN(4) == 0 {
					v.SetResource(uid, nil)
					delete(tx.res, uid)
					what = "delete " + uid
					break
				}
				a := Addr{modelTenants[rng.IntN(2)], modelSpaces[rng.IntN(2)], "g/v1", modelKinds[rng.IntN(2)], uid}
				v.SetResource(uid, &row{a})
				tx.res[uid] = a
				what = fmt.Sprintf("put %s at %v", uid, a)
			case r < 40:
				src := modelUIDs[rng.IntN(len(modelUIDs))]
				var ps []pin
				for range rng.IntN(3) {
					ps = append(ps, pin{modelTargets[rng.IntN(len(modelTargets))], modelNames[rng.IntN(len(modelNames))]})
				}
				v.SetPins(src, ps)
				if len(ps) == 0 {
					delete(tx.pins, src)
				} else {
					tx.pins[src] = ps
				}
				what = fmt.Sprintf("pins of %s: %v", src, ps)
			case r < 52:
				i := rng.IntN(5)
				h := m.Hash("r", fmt.Sprint(i))
				if rng.IntN(4) == 0 {
					v.SetRecord(h, nil)
					delete(tx.records, h)
					what = fmt.Sprintf("drop record %d", i)
					break
				}
				rec := Record{At: rng.Int64N(20), Op: modelOps[rng.IntN(len(modelOps))]}
				v.SetRecord(h, &rec)
				tx.records[h] = rec
				what = fmt.Sprintf("record %d: %+v", i, rec)
			case r < 57:
				before := rng.Int64N(20)
				v.PurgeRecords(before)
				maps.DeleteFunc(tx.records, func(_ Key, r Record) bool { return r.Op == "" && r.At < before })
				what = fmt.Sprintf("purge records before %d", before)
			case r < 67:
				i := rng.IntN(5)
				h := m.Hash("p", fmt.Sprint(i))
				if rng.IntN(4) == 0 {
					v.SetPrepare(h, -1)
					delete(tx.prepares, h)
					what = fmt.Sprintf("drop prepare %d", i)
					break
				}
				at := rng.Int64N(20)
				v.SetPrepare(h, at)
				tx.prepares[h] = at
				what = fmt.Sprintf("prepare %d at %d", i, at)
			case r < 72:
				before := rng.Int64N(20)
				v.PurgePrepares(before)
				maps.DeleteFunc(tx.prepares, func(_ Key, at int64) bool { return at < before })
				what = fmt.Sprintf("purge prepares before %d", before)
			case r < 80:
				name, n := modelCounts[rng.IntN(2)], rng.Int64N(5)-2
				if rng.IntN(3) == 0 {
					v.SetCounter(name, n)
					tx.counters[name] = n
					what = fmt.Sprintf("counter %s = %d", name, n)
				} else {
					v.AddCounter(name, n)
					tx.counters[name] += n
					what = fmt.Sprintf("counter %s += %d", name, n)
				}
			case r < 85:
				id := nextDict
				nextDict++
				v.AddDict(bodycodec.NewDict(id, dictBody(id)))
				tx.dicts[id] = dictBody(id)
				what = fmt.Sprintf("dictionary %d", id)
			case r < 87:
				v.Reset()
				dicts := tx.dicts
				tx = newWorld()
				tx.dicts = dicts
				what = "reset"
			case r < 95:
				m.Apply(ov)
				ov.Clear()
				committed = tx.clone()
				what = "commit"
			default:
				ov.Clear()
				tx = committed.clone()
				what = "roll back"
			}
			log = append(log, what)
			where := func() string {
				return fmt.Sprintf("seed %d, step %d, after:\n  %s", seed, step, slices.Concat(log[max(0, len(log)-12):]))
			}
			if d := compareView(m.View(ov), tx, m); d != "" {
				t.Fatalf("the writer's view: %s\n%s", d, where())
			}
			if d := compareView(m.View(nil), committed, m); d != "" {
				t.Fatalf("a reader's view: %s\n%s", d, where())
			}
			if what == "commit" {
				if d := m.Diff(built(m, committed)); d != "" {
					t.Fatalf("the committed mirror is not the one its world builds: %s\n%s", d, where())
				}
			}
		}
	}
}

// built is a mirror made from w in one transaction on m.Empty().
func built(m *Mirror[row, pin], w world) *Mirror[row, pin] {
	e := m.Empty()
	ov := NewOverlay[row, pin]()
	v := e.View(ov)
	for uid, a := range w.res {
		v.SetResource(uid, &row{a})
	}
	for src, ps := range w.pins {
		v.SetPins(src, ps)
	}
	for h, r := range w.records {
		v.SetRecord(h, &r)
	}
	for h, at := range w.prepares {
		v.SetPrepare(h, at)
	}
	for name, n := range w.counters {
		v.SetCounter(name, n)
	}
	for id, body := range w.dicts {
		v.AddDict(bodycodec.NewDict(id, body))
	}
	e.Apply(ov)
	return e
}

// compareView names the first lookup in which v answers otherwise than w ("" when none does).
func compareView(v View[row, pin], w world, m *Mirror[row, pin]) string {
	for _, uid := range modelUIDs {
		want, live := w.res[uid]
		if got := v.ByUID(uid); (got != nil) != live || live && got.addr != want {
			return fmt.Sprintf("ByUID(%s) = %v; want %v (live %v)", uid, got, want, live)
		}
		if got := v.PinsOf(uid); !slices.Equal(got, w.pins[uid]) {
			return fmt.Sprintf("PinsOf(%s) = %v; want %v", uid, got, w.pins[uid])
		}
		for _, tn := range modelTenants {
			for _, sp := range modelSpaces {
				for _, k := range modelKinds {
					a := Addr{tn, sp, "g/v1", k, uid}
					if got := v.Resource(a); (got != nil) != (live && want == a) {
						return fmt.Sprintf("Resource(%v) = %v; want it live: %v", a, got, live && want == a)
					}
				}
			}
		}
	}
	for _, target := range modelTargets {
		n, srcs := 0, map[string]bool{}
		for src, ps := range w.pins {
			for _, p := range ps {
				if p.uid == target {
					n++
					srcs[src] = true
				}
			}
		}
		if got := v.PinsNamingUID(target); got != n {
			return fmt.Sprintf("PinsNamingUID(%s) = %d; want %d", target, got, n)
		}
		if got := v.SourcesNamingUID(target); !sameSet(got, srcs) {
			return fmt.Sprintf("SourcesNamingUID(%s) = %v; want %v", target, got, srcs)
		}
	}
	for _, name := range modelNames {
		n := 0
		for _, ps := range w.pins {
			for _, p := range ps {
				if p.name == name {
					n++
				}
			}
		}
		if got := v.PinsNamingName(name); got != n {
			return fmt.Sprintf("PinsNamingName(%v) = %d; want %d", name, got, n)
		}
	}
	for _, tn := range modelTenants {
		for _, sp := range modelSpaces {
			for _, name := range modelNames {
				srcs := map[string]bool{}
				for src, ps := range w.pins {
					if a, live := w.res[src]; live && a.Tenant == tn && a.Space == sp && slices.ContainsFunc(ps, func(p pin) bool { return p.name == name }) {
						srcs[src] = true
					}
				}
				if got := v.SourcesNamingName(tn, sp, name); !sameSet(got, srcs) {
					return fmt.Sprintf("SourcesNamingName(%s, %s, %v) = %v; want %v", tn, sp, name, got, srcs)
				}
			}
			for _, k := range modelKinds {
				uids := map[string]bool{}
				for uid, a := range w.res {
					if a.Tenant == tn && a.Space == sp && a.Kind == k {
						uids[uid] = true
					}
				}
				if got := v.OfKind(tn, sp, k); !sameSet(got, uids) {
					return fmt.Sprintf("OfKind(%s, %s, %s) = %v; want %v", tn, sp, k, got, uids)
				}
				if got, want := v.MayAffect(tn, sp, Target{}, []string{k}), len(uids) > 0; got != want {
					return fmt.Sprintf("MayAffect(%s, %s, no name, [%s]) = %v; want %v", tn, sp, k, got, want)
				}
			}
		}
	}
	for i := range 5 {
		h := m.Hash("r", fmt.Sprint(i))
		want, ok := w.records[h]
		if got, gotOK := v.Record(h); gotOK != ok || got.At != want.At || got.Op != want.Op || v.HasRecord(h) != ok {
			return fmt.Sprintf("Record(%d) = %+v, %v; want %+v, %v", i, got, gotOK, want, ok)
		}
		p := m.Hash("p", fmt.Sprint(i))
		wantAt, ok := w.prepares[p]
		if got, gotOK := v.Prepare(p); gotOK != ok || got != wantAt {
			return fmt.Sprintf("Prepare(%d) = %d, %v; want %d, %v", i, got, gotOK, wantAt, ok)
		}
	}
	for _, op := range modelOps[1:] {
		want := map[Key]bool{}
		for h, r := range w.records {
			if r.Op == op {
				want[h] = true
			}
		}
		got := map[Key]bool{}
		for _, h := range v.Waiting(op) {
			if got[h] {
				return fmt.Sprintf("Waiting(%s) lists a record twice", op)
			}
			got[h] = true
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("Waiting(%s) = %v; want %v", op, got, want)
		}
	}
	if got := v.Counters(); !maps.Equal(got, w.counters) {
		return fmt.Sprintf("Counters() = %v; want %v", got, w.counters)
	}
	if got := v.Dicts(); got != len(w.dicts) {
		return fmt.Sprintf("Dicts() = %d; want %d", got, len(w.dicts))
	}
	for id := range int64(24) {
		body, ok := w.dicts[id]
		if d := v.DictByID(id); (d != nil) != ok || ok && string(d.Body()) != string(body) {
			return fmt.Sprintf("DictByID(%d) = %v; want it known: %v", id, d, ok)
		}
		if d := v.DictByShape(bodycodec.Shape(dictBody(id))); (d != nil) != ok || ok && d.ID() != id {
			return fmt.Sprintf("DictByShape(shape of %d) = %v; want it known: %v", id, d, ok)
		}
	}
	return ""
}

func sameSet(got []string, want map[string]bool) bool {
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] || !want[g] {
			return false
		}
		seen[g] = true
	}
	return len(seen) == len(want)
}

// A key made of parts differs from a key of the same bytes cut elsewhere.
func TestHashKeepsItsPartsApart(t *testing.T) {
	m := newTest()
	for _, pair := range [][2][]string{
		{{"ab", "c"}, {"a", "bc"}},
		{{"a"}, {"a", ""}},
		{{"", "a"}, {"a"}},
	} {
		if m.Hash(pair[0]...) == m.Hash(pair[1]...) {
			t.Errorf("Hash(%q) == Hash(%q)", pair[0], pair[1])
		}
	}
	if m.Hash("a", "b") != m.Empty().Hash("a", "b") {
		t.Error("an empty mirror made from m hashes otherwise than m")
	}
}
