package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"testing"
)

// rawQ hides a Store's Q from the mirror: its lookups run their queries.
type rawQ struct{ Q }

// checkMirror compares the mirror with one loaded afresh from SQLite.
func checkMirror(t *testing.T, s *Store, when string) {
	t.Helper()
	fresh := s.m.Empty()
	if err := loadMirror(s.DB(), fresh); err != nil {
		t.Fatal(err)
	}
	var skip []string
	if s.memory { // the mirror alone keeps them there (PutRecord, MintPrepare)
		skip = append(skip, "records", "records waiting on operations", "prepares", "counters")
	}
	if d := s.m.Diff(fresh, skip...); d != "" {
		t.Fatalf("%s: the mirror differs from SQLite (mirror, then SQLite): %s", when, d)
	}
}

// world drives random writes, some rolled back, and checks after each
// transaction that the mirror equals SQLite, and inside each that the
// transaction's lookups through the mirror equal its queries.
type world struct {
	t    *testing.T
	s    *Store
	rnd  *rand.Rand
	uids []string
	n    int
	// relations: half the steps replace a resource's pins (the relation
	// lookups' world; the other half is the usual mix)
	relations bool
	// rows Affected and PinsTo gave in the comparisons: the world must make
	// them answer more than nothing
	affected, pinsTo int
}

func uidsOf(rs []*Resource) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.UID)
	}
	return out
}

var errRollback = errors.New("roll back")

func (w *world) pick(xs ...string) string { return xs[w.rnd.Intn(len(xs))] }

// digest is one of eight prepare digests, half of them sha256: digests.
func (w *world) digest(i int) string {
	if i%2 == 0 {
		return fmt.Sprintf("sha256:%064x", i)
	}
	return fmt.Sprint("digest-", i)
}

// replacePins gives a random resource zero to two new pins.
func (w *world) replacePins(q Q) error {
	if r, _ := GetResourceByUID(q, w.pick(append(w.uids, "none")...)); r != nil {
		var pins []Pin
		for i := range w.rnd.Intn(3) {
			pins = append(pins, Pin{Pointer: fmt.Sprint("/p", 2-i), Relation: "rel", TargetAPIVersion: "g/v1",
				TargetKind: "Kv", TargetName: fmt.Sprint("n", w.rnd.Intn(6)), TargetUID: w.pick(w.uids...), TargetRef: "{}"})
		}
		if err := ReplacePins(q, r.UID, pins, true); err != nil {
			return err
		}
		r.Pins = int64(len(pins))
		return UpdateResource(q, r)
	}
	return nil
}

func (w *world) step(q Q) error {
	if w.relations && w.rnd.Intn(2) == 0 {
		return w.replacePins(q)
	}
	switch w.rnd.Intn(13) {
	case 0, 1:
		w.n++
		r := &Resource{Tenant: w.pick("t1", "t2"), Space: w.pick("a", "b"), APIVersion: "g/v1", Kind: w.pick("Kv", "Worker"),
			Name: fmt.Sprint("n", w.rnd.Intn(6)), UID: fmt.Sprint("u-", w.n), Generation: 1, Revision: 1,
			Spec: []byte(`{"x":1}`), ReadyStatus: "True"}
		if cur, _ := GetResource(q, r.Tenant, r.Space, r.APIVersion, r.Kind, r.Name); cur != nil {
			return nil // the address is taken
		}
		if err := InsertResource(q, r); err != nil {
			return err
		}
		w.uids = append(w.uids, r.UID)
	case 2:
		if r, _ := GetResourceByUID(q, w.pick(append(w.uids, "none")...)); r != nil {
			r.Revision++
			r.Spec = []byte(fmt.Sprintf(`{"x":%d}`, r.Revision))
			r.ClaimOp = w.pick("", "op_1")
			return UpdateResource(q, r)
		}
	case 3:
		if r, _ := GetResourceByUID(q, w.pick(append(w.uids, "none")...)); r != nil {
			return DeleteResource(q, r)
		}
	case 4, 11:
		return w.replacePins(q)
	case 5:
		body := w.pick("{}", "", fmt.Sprintf(`{"apiVersion":"g/v1","kind":"%s","metadata":{"name":"n%d","uid":"u-%d"}}`,
			w.pick("Kv", "Worker"), w.rnd.Intn(6), w.rnd.Intn(99)))
		return PutRecord(q, &Record{Tenant: "t1", Principal: "p", Space: w.pick("a", "b"), Key: fmt.Sprint("k", w.rnd.Intn(8)),
			Body: []byte(body), Fingerprint: w.pick("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "fp"),
			Status: w.rnd.Intn(300), ETag: w.pick("", `"3"`), BoundUID: w.pick("", "u-1"), BoundOp: w.pick("", "", "op_1", "op_2"),
			CreatedAt: int64(w.rnd.Intn(100))})
	case 6:
		if w.rnd.Intn(3) == 0 {
			return RebindOperationRecords(q, w.pick("op_1", "op_2"), w.pick("", "u-2"))
		}
		return DropRecord(q, "t1", "p", w.pick("a", "b"), fmt.Sprint("k", w.rnd.Intn(8)))
	case 7:
		return MintPrepare(q, w.digest(w.rnd.Intn(8)), w.pick("t1", "t2"), int64(w.rnd.Intn(100)))
	case 8:
		if w.rnd.Intn(3) == 0 {
			return Purge(q, int64(w.rnd.Intn(30)), int64(w.rnd.Intn(30)))
		}
	case 9:
		if w.rnd.Intn(8) == 0 {
			return w.s.ResetTables(q)
		}
	case 10:
		return errRollback
	case 12:
		if w.rnd.Intn(4) == 0 {
			return SetCounter(q, w.pick("c1", "c2"), int64(w.rnd.Intn(9)))
		}
		return AddCounter(q, w.pick("c1", "c2"), int64(1+w.rnd.Intn(3)))
	}
	return nil
}

// compare asks every mirrored lookup through the mirror and through SQL.
func (w *world) compare(q Q) {
	t := w.t
	t.Helper()
	affected, pinsTo := 0, 0
	defer func() { w.affected, w.pinsTo = w.affected+affected, w.pinsTo+pinsTo }()
	for _, tenant := range []string{"t1", "t2"} {
		for _, space := range []string{"a", "b"} {
			for _, kind := range []string{"Kv", "Worker"} {
				for i := range 6 {
					name := fmt.Sprint("n", i)
					a, _ := GetResource(q, tenant, space, "g/v1", kind, name)
					b, _ := GetResource(rawQ{q}, tenant, space, "g/v1", kind, name)
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("GetResource %s/%s/%s/%s: mirror %+v, sqlite %+v", tenant, space, kind, name, a, b)
					}
					skip := w.pick(append(w.uids, "")...)
					a1, _ := Affected(q, tenant, space, "g/v1", kind, name, []string{"Worker"}, skip)
					b1, _ := Affected(rawQ{q}, tenant, space, "g/v1", kind, name, []string{"Worker"}, skip)
					if !reflect.DeepEqual(a1, b1) {
						t.Fatalf("Affected %s/%s/%s/%s skipping %q: mirror %v, sqlite %v", tenant, space, kind, name, skip, uidsOf(a1), uidsOf(b1))
					}
					affected += len(a1)
				}
			}
		}
	}
	for _, uid := range append(w.uids, "none") {
		a, _ := GetResourceByUID(q, uid)
		b, _ := GetResourceByUID(rawQ{q}, uid)
		pa, _ := PinsOf(q, uid)
		pb, _ := PinsOf(rawQ{q}, uid)
		ta, _ := PinsTo(q, uid)
		tb, _ := PinsTo(rawQ{q}, uid)
		if !reflect.DeepEqual(a, b) || len(pa) != len(pb) || (len(pa) > 0 && !reflect.DeepEqual(pa, pb)) || len(ta) != len(tb) || (len(ta) > 0 && !reflect.DeepEqual(ta, tb)) {
			t.Fatalf("uid %s: mirror %+v %v %v, sqlite %+v %v %v", uid, a, pa, ta, b, pb, tb)
		}
		pinsTo += len(ta)
	}
	for _, space := range []string{"a", "b"} {
		for i := range 8 {
			a, errA := GetRecord(q, "t1", "p", space, fmt.Sprint("k", i))
			b, errB := GetRecord(rawQ{q}, "t1", "p", space, fmt.Sprint("k", i))
			if errA != nil || errB != nil { // a key never written, or dropped, is no record and no error
				t.Fatalf("record %s/k%d: mirror error %v, sqlite error %v", space, i, errA, errB)
			}
			if w.s.memory { // the mirror alone keeps records there (PutRecord); the twin checks them
				if b != nil {
					t.Fatalf("record %s/k%d: in SQLite on the in-memory database", space, i)
				}
				continue
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("record %s/k%d: mirror %+v, sqlite %+v", space, i, a, b)
			}
		}
	}
	if a, b := counters(t, q), counters(t, rawQ{q}); w.s.memory && len(b) > 0 {
		t.Fatalf("counters %v: in SQLite on the in-memory database", b)
	} else if !w.s.memory && !reflect.DeepEqual(a, b) {
		t.Fatalf("counters: mirror %v, sqlite %v", a, b)
	}
	for i := range 8 {
		for _, tenant := range []string{"t1", "t2"} {
			d := w.digest(i)
			a, af, errA := PrepareMintedAt(q, d, tenant)
			b, bf, errB := PrepareMintedAt(rawQ{q}, d, tenant)
			if errA != nil || errB != nil { // a digest never minted, or purged, is not found and no error
				t.Fatalf("prepare %s/%s: mirror error %v, sqlite error %v", d, tenant, errA, errB)
			}
			if w.s.memory { // the mirror alone keeps prepare mints there (MintPrepare)
				if bf {
					t.Fatalf("prepare %s/%s: in SQLite on the in-memory database", d, tenant)
				}
				continue
			}
			if a != b || af != bf {
				t.Fatalf("prepare %s/%s: mirror %d %v, sqlite %d %v", d, tenant, a, af, b, bf)
			}
		}
	}
}

// transact runs one random write transaction of w and checks the mirror after it.
func (w *world) transact(i int) {
	ctx := context.Background()
	err := w.s.Write(ctx, func(q Q) error {
		for range 1 + w.rnd.Intn(4) {
			if err := w.step(q); err != nil {
				return err
			}
			w.compare(q)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errRollback) {
		w.t.Fatal(err)
	}
	checkMirror(w.t, w.s, fmt.Sprintf("after transaction %d", i))
	_ = w.s.Read(ctx, func(q Q) error { w.compare(q); return nil })
}

func counters(t *testing.T, q Q) map[string]int64 {
	t.Helper()
	c, err := CounterValues(q)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameRecords compares every record the worlds can hold in two stores, and
// their counters.
func sameRecords(t *testing.T, a, b *Store, when string) {
	t.Helper()
	var ca, cb map[string]int64
	_ = a.Read(context.Background(), func(q Q) error { ca = counters(t, q); return nil })
	_ = b.Read(context.Background(), func(q Q) error { cb = counters(t, q); return nil })
	if !reflect.DeepEqual(ca, cb) {
		t.Fatalf("%s: counters in memory %v, on a file %v", when, ca, cb)
	}
	get := func(s *Store, space, key string) (r *Record) {
		if err := s.Read(context.Background(), func(q Q) (err error) { r, err = GetRecord(q, "t1", "p", space, key); return err }); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, space := range []string{"a", "b"} {
		for i := range 8 {
			ra, rb := get(a, space, fmt.Sprint("k", i)), get(b, space, fmt.Sprint("k", i))
			if !reflect.DeepEqual(ra, rb) {
				t.Fatalf("%s: record %s/k%d: in memory %+v, on a file %+v", when, space, i, ra, rb)
			}
		}
	}
}

func testMirror(t *testing.T, path string) {
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, s: s, rnd: rand.New(rand.NewSource(1))}
	// In memory the mirror alone keeps records: a twin world on a file, drawn
	// from the same seed, makes the same writes, and every record must read
	// the same in both.
	var twin *world
	if path == "" {
		ts, err := Open(filepath.Join(t.TempDir(), "twin.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer ts.Close()
		twin = &world{t: t, s: ts, rnd: rand.New(rand.NewSource(1))}
	}
	var most [4]int // the most resources, records, prepares and pin sources the world held
	for i := range 150 {
		w.transact(i)
		if twin != nil {
			twin.transact(i)
			sameRecords(t, s, twin.s, fmt.Sprintf("after transaction %d", i))
		}
		c := s.m.Len()
		for j, n := range []int{c.Resources, c.Records, c.Prepares, c.PinSources} {
			most[j] = max(most[j], n)
		}
	}
	if w.affected < 100 || w.pinsTo < 100 {
		t.Fatalf("the comparisons saw %d affected resources and %d pins naming a uid: too few to prove the mirror answers them", w.affected, w.pinsTo)
	}
	if min(most[0], most[1], most[2], most[3]) < 2 {
		t.Fatalf("the random world stayed too empty to prove much: at most %d resources, %d records, %d prepares, %d pin sources",
			most[0], most[1], most[2], most[3])
	}
	if path == "" {
		s.Close()
		return
	}
	want := s.m
	s.Close()
	s, err = Open(path) // a --db file opened again loads the mirror
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.m.Len() != want.Len() {
		t.Fatalf("the mirror loaded from the reopened file holds %+v, the one before %+v", s.m.Len(), want.Len())
	}
	again := want.Empty() // hashing keys as before, so records and prepares compare too
	if err := loadMirror(s.DB(), again); err != nil {
		t.Fatal(err)
	}
	if d := want.Diff(again); d != "" {
		t.Fatalf("the mirror loaded from the reopened file differs from the one before: %s", d)
	}
}

func TestMirrorFollowsSQLiteInMemory(t *testing.T) { testMirror(t, "") }

// The relation lookups a mutation's re-render asks (Affected, PinsTo) answer
// through the mirror as SQLite answers them, in a world where pins change at
// every other step: sources that stop naming a target, transactions rolled
// back, resources deleted while pinned.
func TestMirrorAnswersRelationLookupsAsSQLite(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := &world{t: t, s: s, rnd: rand.New(rand.NewSource(7)), relations: true}
	for i := range 200 {
		w.transact(i)
	}
	if w.affected < 1000 || w.pinsTo < 1000 {
		t.Fatalf("the comparisons saw %d affected resources and %d pins naming a uid: too few to prove the mirror answers them", w.affected, w.pinsTo)
	}
}

func TestMirrorFollowsSQLiteOnAFile(t *testing.T) { testMirror(t, filepath.Join(t.TempDir(), "m.db")) }

// A lookup never hands out the mirror's own resource: changing what it
// returned changes nothing stored.
func TestMirrorHandsOutCopies(t *testing.T) {
	s, err := Open("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	r := &Resource{Tenant: "t", Space: "s", APIVersion: "g/v1", Kind: "K", Name: "n", UID: "u-1", Spec: []byte(`{}`)}
	if err := s.Write(ctx, func(q Q) error { return InsertResource(q, r) }); err != nil {
		t.Fatal(err)
	}
	r.Revision = 9
	_ = s.Read(ctx, func(q Q) error {
		got, _ := GetResource(q, "t", "s", "g/v1", "K", "n")
		got.Revision = 7
		return nil
	})
	_ = s.Read(ctx, func(q Q) error {
		got, _ := GetResourceByUID(q, "u-1")
		if got.Revision != 0 {
			t.Fatalf("the stored revision became %d through a caller's copy", got.Revision)
		}
		return nil
	})
}
