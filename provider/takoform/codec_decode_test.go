package takoform

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/hostsim"
)

// TestDecodeValueTakesOnlyTheJSONTypeOfItsField: a host's spec member is decoded into
// state only when its JSON type is the field's (docs/provider-design.md#codec); any
// other type is an error naming the member, never a zero value taken in its place
// (a string field answered with a number would otherwise become ""). Every field kind
// the embedded catalog declares is tried, on the first field of that kind (members of
// objects included), with its own type and with each other type.
func TestDecodeValueTakesOnlyTheJSONTypeOfItsField(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	first := map[model.FieldKind]*model.Field{}
	var walk func(fs []model.Field)
	walk = func(fs []model.Field) {
		for i := range fs {
			if first[fs[i].Kind] == nil {
				first[fs[i].Kind] = &fs[i]
			}
			walk(fs[i].Members)
		}
	}
	for _, kt := range h.p.kinds {
		walk(kt.model.newest.Fields)
	}
	ref := func(name any) map[string]any { return map[string]any{"apiVersion": "a/v1", "kind": "K", "name": name} }
	// the JSON values a spec member can hold, by name
	samples := map[string]any{
		"number": json.Number("3"), "boolean": true, "string": "x", "object": map[string]any{"k": "v"},
		"reference": ref("x"), "strings": []any{"a"}, "numbers": []any{json.Number("1")}, "empty list": []any{},
	}
	// what each kind takes; every other sample is refused
	takes := map[model.FieldKind][]string{
		model.FieldInteger:     {"number"},
		model.FieldBoolean:     {"boolean"},
		model.FieldString:      {"string"},
		model.FieldStringEnum:  {"string"},
		model.FieldReference:   {"reference"},
		model.FieldJSONMap:     {"object", "reference"},
		model.FieldStringSet:   {"strings", "empty list"},
		model.FieldStringList:  {"strings", "empty list"},
		model.FieldBindingList: {"empty list"},
		model.FieldObjectList:  {"empty list"},
		model.FieldObject:      {"object", "reference"},
	}
	if len(first) < 8 {
		t.Fatalf("the catalog declares fields of %d kinds; the test expects at least 8", len(first))
	}
	for kind, f := range first {
		ok, known := takes[kind]
		if !known {
			t.Fatalf("field kind %q (%s) has no case here: add what it takes", kind, f.Wire)
		}
		for name, v := range samples {
			_, err := decodeValue(f, v)
			want := slices.Contains(ok, name)
			if want && err != nil {
				t.Errorf("%s field %s refused a %s: %v", kind, f.Wire, name, err)
			}
			if !want && (err == nil || !strings.Contains(err.Error(), "member "+f.Wire+" has an unexpected JSON type ")) {
				t.Errorf("%s field %s took a %s (%v); want an error naming the member and the JSON type", kind, f.Wire, name, err)
			}
		}
	}
	// the entries of a binding list are {name, <refMember>: {name}}
	bl := first[model.FieldBindingList]
	for _, entry := range []map[string]any{
		{"name": json.Number("5"), bl.RefMember: ref("kv")},
		{"name": "CACHE", bl.RefMember: "kv"},
		{"name": "CACHE", bl.RefMember: ref(json.Number("5"))},
		{"name": "CACHE"},
	} {
		if v, err := decodeValue(bl, []any{entry}); err == nil {
			t.Errorf("binding list %s took the entry %v as %v; want an error", bl.Wire, entry, v)
		}
	}
	if v, err := decodeValue(bl, []any{map[string]any{"name": "CACHE", bl.RefMember: ref("kv")}}); err != nil || !strings.Contains(fmt.Sprint(v), "CACHE") {
		t.Errorf("binding list %s refused a well-formed entry: %v %v", bl.Wire, v, err)
	}
}
