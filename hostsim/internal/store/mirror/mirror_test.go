package mirror

import "testing"

type row struct{ addr Addr }
type pin struct {
	uid  string
	name Target
}

func newTest() *Mirror[row, pin] {
	return New(func(r *row) Addr { return r.addr }, func(p pin) (string, Target) { return p.uid, p.name })
}

// A transaction's changes are seen by its own view at once, by readers only
// once applied, and a reset or a purge hides what was committed before.
func TestOverlayThenApply(t *testing.T) {
	m := newTest()
	a := Addr{"t", "s", "g/v1", "Worker", "w"}
	tgt := Target{"g/v1", "Kv", "k"}
	ov := NewOverlay[row, pin]()
	w := m.View(ov)
	w.SetResource("u-1", &row{a})
	w.SetPins("u-1", []pin{{"u-2", tgt}})
	w.SetRecord(m.Hash("r"), &Record{At: 5})
	w.SetPrepare(m.Hash("p"), 10)
	if w.ByUID("u-1") == nil || w.Resource(a) == nil || w.PinsNamingUID("u-2") != 1 || !w.HasRecord(m.Hash("r")) ||
		!w.MayAffect("t", "s", Target{}, []string{"Worker"}) || !w.MayAffect("x", "y", tgt, nil) {
		t.Fatal("the writer does not see its own changes")
	}
	r := m.View(nil)
	if r.ByUID("u-1") != nil || r.PinsNamingName(tgt) != 0 || r.HasRecord(m.Hash("r")) {
		t.Fatal("a reader sees a change before its transaction committed")
	}
	m.Apply(ov)
	if r.Resource(a) == nil || r.PinsNamingName(tgt) != 1 || !r.HasRecord(m.Hash("r")) || m.Len() != (Counts{1, 1, 1, 1, 0}) {
		t.Fatalf("a reader does not see the committed changes: %+v", m.Len())
	}
	ov.Clear()
	w.PurgePrepares(11)
	if _, ok := w.Prepare(m.Hash("p")); ok {
		t.Fatal("a purged prepare is still seen")
	}
	w.Reset()
	if w.ByUID("u-1") != nil || w.PinsNamingUID("u-2") != 0 || w.MayAffect("t", "s", tgt, []string{"Worker"}) {
		t.Fatal("a reset transaction still sees committed rows")
	}
	w.SetResource("u-3", &row{a})
	m.Apply(ov)
	if m.Len() != (Counts{Resources: 1}) || r.ByUID("u-3") == nil || r.Resource(a) == nil {
		t.Fatalf("after a reset the mirror holds %+v", m.Len())
	}
	if d := m.Diff(m.Empty()); d == "" {
		t.Fatal("Diff finds no difference between a full and an empty mirror")
	}
}

// The sources naming a target and the resources of a kind, as a transaction
// sees them: what it committed before, less what it changed or deleted since,
// and nothing committed once it reset the tables.
func TestRelationSetsFollowTheOverlay(t *testing.T) {
	m := newTest()
	tgt := Target{"g/v1", "Kv", "k"}
	w1, w2 := Addr{"t", "s", "g/v1", "Worker", "w1"}, Addr{"t", "s", "g/v1", "Worker", "w2"}
	ov := NewOverlay[row, pin]()
	v := m.View(ov)
	v.SetResource("u-1", &row{w1})
	v.SetResource("u-2", &row{w2})
	v.SetPins("u-1", []pin{{"u-9", tgt}})
	v.SetPins("u-2", []pin{{"u-9", tgt}, {"u-8", Target{"g/v1", "Kv", "other"}}})
	v.SetResource("u-6", &row{Addr{"t", "elsewhere", "g/v1", "Worker", "w6"}})
	v.SetPins("u-6", []pin{{"u-7", tgt}}) // the same name, pinned from another space
	m.Apply(ov)
	ov.Clear()
	set := func(s []string) map[string]bool {
		out := map[string]bool{}
		for _, x := range s {
			if out[x] {
				t.Fatalf("%v lists %s twice", s, x)
			}
			out[x] = true
		}
		return out
	}
	same := func(what string, got []string, want ...string) {
		t.Helper()
		g := set(got)
		if len(g) != len(want) {
			t.Fatalf("%s: %v; want %v", what, got, want)
		}
		for _, x := range want {
			if !g[x] {
				t.Fatalf("%s: %v; want %v", what, got, want)
			}
		}
	}
	same("committed sources by uid", v.SourcesNamingUID("u-9"), "u-1", "u-2")
	same("committed sources by name", v.SourcesNamingName("t", "s", tgt), "u-1", "u-2")
	same("committed workers", v.OfKind("t", "s", "Worker"), "u-1", "u-2")
	v.SetPins("u-2", []pin{{"u-8", Target{"g/v1", "Kv", "other"}}}) // u-2 stops naming u-9 and k
	v.SetResource("u-1", nil)                                       // u-1 deleted, its pins left
	v.SetResource("u-3", &row{Addr{"t", "s", "g/v1", "Worker", "w3"}})
	v.SetResource("u-4", &row{Addr{"t", "other", "g/v1", "Worker", "w4"}})
	v.SetPins("u-6", []pin{{"u-9", tgt}}) // touched, still in another space
	same("sources by uid in the transaction", v.SourcesNamingUID("u-9"), "u-1", "u-6")
	same("sources by name in the transaction", v.SourcesNamingName("t", "s", tgt)) // u-1 is no longer live
	same("sources by name in another space", v.SourcesNamingName("t", "elsewhere", tgt), "u-6")
	same("workers in the transaction", v.OfKind("t", "s", "Worker"), "u-2", "u-3")
	r := m.View(nil)
	same("a reader's sources", r.SourcesNamingUID("u-9"), "u-1", "u-2")
	same("a reader's workers", r.OfKind("t", "s", "Worker"), "u-1", "u-2")
	m.Apply(ov)
	ov.Clear()
	same("committed sources by uid, the transaction applied", r.SourcesNamingUID("u-9"), "u-1", "u-6")
	same("committed sources by name, the transaction applied", r.SourcesNamingName("t", "s", tgt)) // u-1 dead, u-2 moved on
	same("committed sources by name elsewhere", r.SourcesNamingName("t", "elsewhere", tgt), "u-6")
	same("committed workers, the transaction applied", r.OfKind("t", "s", "Worker"), "u-2", "u-3")
	v.Reset()
	v.SetResource("u-5", &row{Addr{"t", "s", "g/v1", "Worker", "w5"}})
	v.SetPins("u-5", []pin{{"u-9", tgt}})
	same("sources after a reset", v.SourcesNamingName("t", "s", tgt), "u-5")
	same("workers after a reset", v.OfKind("t", "s", "Worker"), "u-5")
	m.Apply(ov)
	same("committed after the reset", r.SourcesNamingUID("u-9"), "u-5")
	same("committed workers after the reset", r.OfKind("t", "s", "Worker"), "u-5")
}
