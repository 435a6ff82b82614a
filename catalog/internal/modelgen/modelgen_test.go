package modelgen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/model"
)

// TestValueSpellsAField: a field is a composite literal of its exported, non-zero
// members in declaration order; a kind is its constant, a raw default a conversion of a
// string constant (and the file then imports encoding/json), an integer bound a pointer
// to a shared variable named for its value (negative ones too).
func TestValueSpellsAField(t *testing.T) {
	lo, hi := int64(-3), int64(5)
	f := model.Field{Wire: "size", Kind: model.FieldInteger, Default: json.RawMessage(`3`), Min: &lo, Max: &hi}
	g := &gen{ints: map[int64]bool{}}
	got := g.value(reflect.ValueOf(f))
	want := "model.Field{\nWire: \"size\",\nKind: model.FieldInteger,\nDefault: json.RawMessage(\"3\"),\nMin: &numMinus3,\nMax: &num5,\n}"
	if got != want {
		t.Errorf("value(field) =\n%s\nwant\n%s", got, want)
	}
	if !g.json {
		t.Error("a json.RawMessage was spelled, and the file would not import encoding/json")
	}
	var ints []int64
	for n := range g.ints {
		ints = append(ints, n)
	}
	slices.Sort(ints)
	if !slices.Equal(ints, []int64{-3, 5}) {
		t.Errorf("the integers pointed at are %v, want [-3 5]", ints)
	}
}

// TestValueSpellsCollections: maps in key order whatever the runtime's order, slices
// in theirs, nil ones as nil, empty ones as empty literals, a kind the table does not
// name as a conversion of its text.
func TestValueSpellsCollections(t *testing.T) {
	g := &gen{ints: map[int64]bool{}}
	for _, c := range []struct {
		v    any
		want string
	}{
		{map[string]int{"b": 2, "a": 1, "c": 3}, "map[string]int{\n\"a\": 1,\n\"b\": 2,\n\"c\": 3,\n}"},
		{[]string{"x", "y"}, "[]string{\n\"x\",\n\"y\",\n}"},
		{[]string{}, "[]string{}"},
		{[]string(nil), "nil"},
		{map[string]bool(nil), "nil"},
		{(*model.Field)(nil), "nil"},
		{[]byte("a\"b"), "[]byte(\"a\\\"b\")"},
		{model.FieldKind("odd"), "model.FieldKind(\"odd\")"},
		{true, "true"},
		{-7, "-7"},
	} {
		if got := g.value(reflect.ValueOf(c.v)); got != c.want {
			t.Errorf("value(%#v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestValueRefusesWhatItCannotSpell: a value of a kind the generator has no literal
// for, or of a type from a package the file does not import, stops the generation
// with the type named, rather than writing source that would not compile.
func TestValueRefusesWhatItCannotSpell(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{1.5, "modelgen: cannot spell a float64"},
		{time.Time{}, "modelgen: type time.Time from time has no spelling"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("value(%#v) panicked with %v, want %q", c.v, r, c.want)
				}
			}()
			(&gen{ints: map[int64]bool{}}).value(reflect.ValueOf(c.v))
		}()
	}
}
