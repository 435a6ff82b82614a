package conformance

import (
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
)

// TestCandidatesChangeTheField: what variant tries for a field is, per kind, a
// list of other values, never the current one (a variant equal to the spec would
// make a check send "a change" that changes nothing), in the order the checks
// depend on: the declared bounds first, a digest flipped before any other
// string, the reference re-pointed at the fresh name.
func TestCandidatesChangeTheField(t *testing.T) {
	t.Parallel()
	i64 := func(n int64) *int64 { return &n }
	digest := "sha256:" + strings.Repeat("a", 64)
	cases := []struct {
		name string
		fl   catalog.Field
		cur  any
		want []any // nil: only the first candidate is compared, with first
		head any
	}{
		{name: "an integer at its maximum, without a minimum", fl: catalog.Field{Kind: catalog.FieldInteger, Max: i64(5)}, cur: 5.0,
			want: []any{6.0, 4.0}},
		{name: "an integer between its bounds", fl: catalog.Field{Kind: catalog.FieldInteger, Min: i64(1), Max: i64(9)}, cur: 3.0,
			want: []any{1.0, 9.0, 4.0, 2.0}},
		{name: "an enum", fl: catalog.Field{Kind: catalog.FieldStringEnum, Enum: []string{"a", "b", "c"}}, cur: "a",
			want: []any{"b", "c"}},
		{name: "a boolean", fl: catalog.Field{Kind: catalog.FieldBoolean}, cur: true,
			want: []any{false}},
		{name: "a string with a digit", fl: catalog.Field{Kind: catalog.FieldString}, cur: "v1",
			want: []any{"xv1", "fresh.v1", "v1x", "v2"}},
		{name: "a digest", fl: catalog.Field{Kind: catalog.FieldString}, cur: digest,
			head: flipDigest(digest)},
		{name: "a reference", fl: catalog.Field{Kind: catalog.FieldReference}, cur: map[string]any{"apiVersion": "a.example/v1", "kind": "K", "name": "old"},
			want: []any{map[string]any{"apiVersion": "a.example/v1", "kind": "K", "name": "fresh"}}},
		{name: "a set of two lacking one value", fl: catalog.Field{Kind: catalog.FieldStringSet, Enum: []string{"a", "b", "c"}}, cur: []any{"a", "b"},
			want: []any{[]any{"a", "b", "c"}, []any{"a"}}},
		{name: "a list of one", fl: catalog.Field{Kind: catalog.FieldStringList, Enum: []string{"a", "b"}}, cur: []any{"b"},
			want: []any{[]any{"b", "a"}}},
	}
	for _, c := range cases {
		got := candidates(c.fl, c.cur, "fresh")
		for _, v := range got {
			if reflect.DeepEqual(v, c.cur) {
				t.Errorf("%s: candidates %v offer the current value %v", c.name, got, c.cur)
			}
		}
		switch {
		case c.want != nil && !reflect.DeepEqual(got, c.want):
			t.Errorf("%s: candidates = %v, want %v", c.name, got, c.want)
		case c.want == nil && (len(got) == 0 || !reflect.DeepEqual(got[0], c.head)):
			t.Errorf("%s: candidates = %v, want %v first", c.name, got, c.head)
		}
	}
}

// TestAnUpdateChangesNeitherAReferenceNorAnImmutableField: the fields mutable
// offers an update's variant are the ones an update may change: no immutable
// field (the host refuses that change) and no reference (re-pointed at a fresh
// name, it names nothing).
func TestAnUpdateChangesNeitherAReferenceNorAnImmutableField(t *testing.T) {
	t.Parallel()
	f := &catalog.Form{Immutable: map[string]bool{"/region": true}}
	for _, c := range []struct {
		fl        catalog.Field
		mutable   bool
		immutable bool
	}{
		{catalog.Field{Wire: "size", Kind: catalog.FieldInteger}, true, false},
		{catalog.Field{Wire: "region", Kind: catalog.FieldString}, false, true},
		{catalog.Field{Wire: "queue", Kind: catalog.FieldReference}, false, false},
	} {
		if got := mutable(f)(c.fl); got != c.mutable {
			t.Errorf("mutable(%s) = %v, want %v", c.fl.Wire, got, c.mutable)
		}
		if got := immutableField(f)(c.fl); got != c.immutable {
			t.Errorf("immutableField(%s) = %v, want %v", c.fl.Wire, got, c.immutable)
		}
	}
}
