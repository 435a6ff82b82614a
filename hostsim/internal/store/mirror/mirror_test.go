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
