package conformance

import (
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// A check picks the first installed Form that fits and that the host lets
// create, read and delete; a Form is updatable only when the host offers
// update and its Definition declares one.
func TestPickingAFormAsksWhatTheHostOffers(t *testing.T) {
	cat, err := catalog.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var upd []*catalog.Form
	for _, f := range cat.Forms() {
		if f.DeclaresUpdate && len(f.Fixtures) > 0 && standalone(f) {
			upd = append(upd, f)
		}
	}
	if len(upd) < 2 {
		t.Fatal("the embedded catalog has fewer than two standalone Forms that declare an update")
	}
	a, b := upd[0], upd[1]
	ops := func(o ...string) *formSupport { return &formSupport{Operations: o} }
	p := &Probe{S: &Surface{Forms: []*catalog.Form{a, b}, Profiles: map[wire.FormRef]*formSupport{
		a.Ref: ops("create", "read", "update"), // no delete: a check could not clean up after itself
		b.Ref: ops("create", "read", "delete", "update"),
	}}}
	all := func(*catalog.Form) bool { return true }
	if f, err := p.pickForm("anything", all); err != nil || f != b {
		t.Errorf("picked %v (%v); want %s, the one the host lets delete", f, err, b.Ref)
	}
	if !p.updatable(b) || !p.updatable(a) {
		t.Errorf("updatable: %v and %v; want both (the host offers update, the Definitions declare one)", p.updatable(a), p.updatable(b))
	}
	p.S.Profiles[b.Ref] = ops("create", "read", "delete")
	if p.updatable(b) {
		t.Errorf("%s is updatable where the host does not offer update", b.Ref)
	}
	noUpdate := *a
	noUpdate.DeclaresUpdate = false
	if p.updatable(&noUpdate) {
		t.Errorf("a Form whose Definition declares no update is updatable")
	}
	if _, err := p.pickForm("anything", func(*catalog.Form) bool { return false }); classify(err) != StatusNotApplicable {
		t.Errorf("nothing fits: %v; want not-applicable", err)
	}
}
