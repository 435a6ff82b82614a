package decide

import (
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

func gated(spec string) *Gated {
	return &Gated{JCS: []byte(spec), Digest: wire.RawDigest([]byte(spec)), Spec: decode(spec)}
}

func decode(spec string) map[string]any {
	m := map[string]any{}
	if err := wireDecode(spec, &m); err != nil {
		panic(err)
	}
	return m
}

func TestCheckCapability(t *testing.T) {
	revision := &catalog.Form{Ref: refA, Role: "revision", Capabilities: []string{"create", "read", "delete", "import", "observe"}}
	noUpdate := &catalog.Form{Ref: refA, Role: "identity", Capabilities: []string{"create", "read", "delete", "import", "observe"}}
	update := &catalog.Form{Ref: refA, Role: "attachment", Capabilities: []string{"create", "read", "update", "delete", "import", "observe"},
		Immutable: map[string]bool{"/worker": true}}
	cur := func(spec string) *storeResource {
		r := current()
		r.Spec, r.SpecDigest = []byte(spec), wire.RawDigest([]byte(spec))
		return r
	}
	same, other := `{"a":1,"worker":"w"}`, `{"a":2,"worker":"w"}`
	moved := `{"a":1,"worker":"v"}`
	for _, tc := range []struct {
		name   string
		f      *catalog.Form
		action string
		cur    string
		next   string
		fs     *Acts
		want   wire.Code
		field  string
	}{
		{name: "revision: an identical apply is refused", f: revision, action: "apply", cur: same, next: same, want: wire.CodeInvalidArgument},
		{name: "revision: an identical import re-adopts", f: revision, action: "import", cur: same, next: same},
		{name: "revision: a change is refused", f: revision, action: "import", cur: same, next: other, want: wire.CodeInvalidArgument},
		{name: "revision: capability.ignore accepts the change", f: revision, action: "apply", cur: same, next: other, fs: armed(CapabilityIgnore)},
		{name: "no update: an identical re-apply is fine", f: noUpdate, action: "apply", cur: same, next: same},
		{name: "no update: a change is refused", f: noUpdate, action: "apply", cur: same, next: other, want: wire.CodeInvalidArgument},
		{name: "no update: capability.ignore", f: noUpdate, action: "apply", cur: same, next: other, fs: armed(CapabilityIgnore)},
		{name: "update: a mutable field changes", f: update, action: "apply", cur: same, next: other},
		{name: "update: an immutable field changes", f: update, action: "apply", cur: same, next: moved, want: wire.CodeInvalidArgument, field: "/worker"},
		{name: "update: an immutable field appears", f: update, action: "apply", cur: `{"a":1}`, next: same, want: wire.CodeInvalidArgument, field: "/worker"},
		{name: "update: immutable.ignore", f: update, action: "apply", cur: same, next: moved, fs: armed(ImmutableIgnore)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := CheckCapability(tc.f, tc.action, cur(tc.cur), gated(tc.next), "Queue \"orders\"", tc.fs)
			if codeOf(e) != tc.want {
				t.Fatalf("got %v, want %q", e, tc.want)
			}
			if e != nil && Field(e) != tc.field {
				t.Fatalf("field %q, want %q", Field(e), tc.field)
			}
		})
	}
}

func TestProfileOperation(t *testing.T) {
	for _, tc := range []struct {
		action          string
		exists, changed bool
		want            string
	}{
		{"apply", false, false, "create"},
		{"apply", true, true, "update"},
		{"apply", true, false, ""},
		{"import", false, false, "import"},
		{"import", true, true, "import"},
	} {
		if got := ProfileOperation(tc.action, tc.exists, tc.changed); got != tc.want {
			t.Errorf("ProfileOperation(%s, exists %v, changed %v) = %q, want %q", tc.action, tc.exists, tc.changed, got, tc.want)
		}
	}
}
