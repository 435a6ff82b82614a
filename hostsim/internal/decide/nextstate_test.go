package decide

import (
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// What moves what: the generation moves exactly with the spec digest, the
// revision once per change, an import records a claim once.
func TestNextChange(t *testing.T) {
	base := func() *storeResource {
		r := current()
		r.Spec, r.SpecDigest = []byte(`{"a":1}`), wire.RawDigest([]byte(`{"a":1}`))
		return r
	}
	for _, tc := range []struct {
		name           string
		cur            *storeResource
		next           string
		action, native string
		frozen         bool
		gen, rev       int64
		changed        bool
		nativeID       string
	}{
		{name: "identical re-apply moves nothing", cur: base(), next: `{"a":1}`, action: "apply", gen: 3, rev: 5},
		{name: "a new spec moves generation and revision", cur: base(), next: `{"a":2}`, action: "apply", gen: 4, rev: 6, changed: true},
		{name: "generation.frozen keeps the generation", cur: base(), next: `{"a":2}`, action: "apply", frozen: true, gen: 3, rev: 6, changed: true},
		{name: "a first import records its claim", cur: base(), next: `{"a":1}`, action: "import", native: "n-1", gen: 3, rev: 5, changed: true, nativeID: "n-1"},
		{name: "a claimed resource keeps its claim", cur: func() *storeResource { r := base(); r.NativeID = "n-0"; return r }(),
			next: `{"a":1}`, action: "import", native: "n-0", gen: 3, rev: 5, nativeID: "n-0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := armed()
			if tc.frozen {
				fs = armed(GenerationFrozen)
			}
			next, changed := NextChange(tc.cur, gated(tc.next), tc.action, tc.native, fs)
			if next.Generation != tc.gen || next.Revision != tc.rev || changed != tc.changed || next.NativeID != tc.nativeID {
				t.Fatalf("generation %d revision %d changed %v nativeId %q; want %d %d %v %q",
					next.Generation, next.Revision, changed, next.NativeID, tc.gen, tc.rev, tc.changed, tc.nativeID)
			}
			if tc.cur.Generation != 3 || tc.cur.Revision != 5 {
				t.Fatal("NextChange changed the stored resource in place")
			}
		})
	}
}

func TestNewUIDAndTouch(t *testing.T) {
	if got := NewUID("u-new", "u-gone", nil); got != "u-new" {
		t.Fatalf("NewUID = %q", got)
	}
	if got := NewUID("u-new", "u-gone", armed(UIDReuse)); got != "u-gone" {
		t.Fatalf("uid.reuse: %q", got)
	}
	if a := armed(UIDReuse); NewUID("u-new", "", a) != "u-new" || a.Acted() {
		t.Fatalf("uid.reuse with no deleted uid to reuse: %q, acted %v", NewUID("u-new", "", armed(UIDReuse)), a.Acted())
	}
	if got := NewUID("u-new", "", armed(UIDInvalid)); got != "-u-new" || wire.ValidUID(got) {
		t.Fatalf("uid.invalid: %q", got)
	}
	r := current()
	Touch(r, nil)
	if r.Generation != 3 || r.Revision != 6 || r.ReadyMessage != "host-side status change 1" {
		t.Fatalf("touch: generation %d revision %d message %q", r.Generation, r.Revision, r.ReadyMessage)
	}
	Touch(r, armed(GenerationOnStatus))
	if r.Generation != 4 || r.Revision != 7 {
		t.Fatalf("generation.on-status: generation %d revision %d", r.Generation, r.Revision)
	}
}
