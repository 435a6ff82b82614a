package decide

import "testing"

// Acts is the firing budget of the faults a decision may act on: a counted
// fault acts exactly as often as it has firings left, an uncounted one on
// every ask, and a nil or unarmed Acts never acts and reports nothing.
func TestActsCountFirings(t *testing.T) {
	var nilActs *Acts
	if nilActs.On(FenceIgnore) || nilActs.Fired(FenceIgnore) != 0 || nilActs.Left(FenceIgnore) != 0 || nilActs.Acted() {
		t.Fatal("a nil Acts acted or reported firings")
	}
	a := &Acts{}
	if a.Acted() || a.On(FenceIgnore) {
		t.Fatal("an unarmed Acts acted")
	}
	a.Arm(FenceIgnore, 2)
	if got := a.Left(FenceIgnore); got != 2 {
		t.Fatalf("armed with 2 firings, Left = %d", got)
	}
	for i, want := range []bool{true, true, false, false} {
		if got := a.On(FenceIgnore); got != want {
			t.Fatalf("ask %d of a fault armed with 2 firings: acted %v, want %v", i+1, got, want)
		}
	}
	if a.Fired(FenceIgnore) != 2 || a.Left(FenceIgnore) != 0 || !a.Acted() {
		t.Fatalf("after 2 firings: fired %d, left %d, acted %v", a.Fired(FenceIgnore), a.Left(FenceIgnore), a.Acted())
	}
	if a.Fired(IfMatchIgnore) != 0 {
		t.Fatal("a fault never asked reports firings")
	}
	always := armed(IfMatchIgnore)
	for range 5 {
		if !always.On(IfMatchIgnore) {
			t.Fatal("an uncounted fault stopped acting")
		}
	}
	if always.Fired(IfMatchIgnore) != 5 || always.Left(IfMatchIgnore) >= 0 {
		t.Fatalf("uncounted: fired %d, left %d", always.Fired(IfMatchIgnore), always.Left(IfMatchIgnore))
	}
}
