package takoform

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
)

// TestDecodeValueTakesOnlyTheJSONTypeOfItsField: a host's spec member is decoded into
// state only when its JSON type is the field's (docs/provider-design.md#codec); any
// other type is an error naming the member, never a zero value taken in its place
// (a string field answered with a number would otherwise become ""). Every field kind
// the embedded catalog declares is tried, on the first field of that kind (members of
// objects included), with its own type and with each other type.
func TestDecodeValueTakesOnlyTheJSONTypeOfItsField(t *testing.T) {
	t.Parallel()
	p := testProvider(t) // the codec asks no host
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
	for _, kt := range p.kinds {
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

// TestEncodeSpecOmitsNullFields: a field left null is not sent (the host fills its
// default, as Materialize does here), never sent as its type's zero value: for every
// Form of the catalog, a spec whose fields are all null encodes as the Form's
// defaults alone.
func TestEncodeSpecOmitsNullFields(t *testing.T) {
	t.Parallel()
	p := testProvider(t) // the codec asks no host
	for _, kt := range p.kinds {
		for _, f := range kt.model.kind.Versions {
			vals := values{}
			for i := range f.Fields {
				vals[f.Fields[i].Attr] = nullOf(attrType(&f.Fields[i]))
			}
			got, err := encodeSpec(f, vals)
			if err != nil {
				t.Fatalf("%s %s: %v", f.Ref.Kind, f.Ref.DefinitionVersion, err)
			}
			if want := f.Materialize(map[string]any{}); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: a spec of null fields encodes as %v; want the defaults %v", f.Ref.Kind, f.Ref.DefinitionVersion, got, want)
			}
		}
	}
}

// TestCodecEdges: the encoder and decoder cases no Form's ordinary values reach.
// A set is sent sorted by the canonical (JCS) bytes of its elements, not by the
// strings: `a"` is written `"a\""`, whose backslash sorts after `#`. A JSON map that
// is the JSON null is not one object. A number with a fraction is not an integer.
// An object list's entries are decoded member by member, and a member of another
// JSON type fails the list.
func TestCodecEdges(t *testing.T) {
	t.Parallel()
	p := testProvider(t) // the codec asks no host
	field := func(typeName, attr string) *model.Field {
		m := kindByType(t, p, typeName).model.newest
		for i := range m.Fields {
			if m.Fields[i].Attr == attr {
				return &m.Fields[i]
			}
		}
		t.Fatalf("%s has no field %s", typeName, attr)
		return nil
	}
	handlers := field("takoform_worker_version", "handlers")
	set, _ := types.SetValue(types.StringType, []attr.Value{types.StringValue(`a"`), types.StringValue("a#")})
	if got, err := encodeValue(handlers, set); err != nil || !reflect.DeepEqual(got, []any{"a#", `a"`}) {
		t.Errorf("the set {a\", a#} encodes as %v (%v); want [a# a\"], the order of their canonical bytes", got, err)
	}
	vars := field("takoform_worker_version", "vars_json")
	if got, err := encodeValue(vars, types.StringValue("null")); err == nil || err.Error() != "value is not one JSON object" {
		t.Errorf("the JSON map null encodes as %v (%v); want it refused as not one JSON object", got, err)
	}
	retention := field("takoform_at_least_once_queue", "message_retention_seconds")
	if got, err := decodeValue(retention, json.Number("1.5")); err == nil || err.Error() != "member messageRetentionSeconds is not an integer: 1.5" {
		t.Errorf("1.5 as an integer decodes as %v (%v); want it refused", got, err)
	}
	versions := field("takoform_worker_deployment", "versions")
	var wire, weight string
	for _, mf := range versions.Members {
		if mf.Kind == model.FieldInteger {
			weight = mf.Wire
		} else {
			wire = mf.Wire
		}
	}
	entry := map[string]any{wire: map[string]any{"apiVersion": "a/v1", "kind": "WorkerVersion", "name": "v1"}, weight: json.Number("100")}
	got, err := decodeValue(versions, []any{entry})
	if err != nil || !strings.Contains(fmt.Sprint(got), `"v1"`) || !strings.Contains(fmt.Sprint(got), "100") {
		t.Errorf("an object list entry decodes as %v (%v); want its reference v1 and weight 100", got, err)
	}
	entry[weight] = "heavy"
	if got, err := decodeValue(versions, []any{entry}); err == nil || !strings.Contains(err.Error(), "member "+weight+" has an unexpected JSON type string") {
		t.Errorf("an object list entry whose %s is a string decodes as %v (%v); want the member named", weight, got, err)
	}
}

// TestBindingListEncodesThroughItsReferenceMember: every binding list of the catalog
// has no reference target of its own and one in its item's reference member, and an
// entry encodes as {name, <member>: {apiVersion, kind, name}} with that member's
// target; a list whose model lacks the member is refused, not encoded with a nil
// target.
func TestBindingListEncodesThroughItsReferenceMember(t *testing.T) {
	t.Parallel()
	p := testProvider(t) // the codec asks no host
	lists := bindingLists(t, p)
	for _, f := range lists {
		if f.Ref != nil || bindingRefTarget(f) == nil {
			t.Errorf("binding list %s: own target %v, its member %q's %v; want none of its own and its member's", f.Wire, f.Ref, f.RefMember, bindingRefTarget(f))
		}
	}
	bl := lists[len(lists)-1]
	itemType := map[string]attr.Type{"name": types.StringType, bindingTargetAttr: types.StringType}
	item, d := types.ObjectValue(itemType, map[string]attr.Value{"name": types.StringValue("CACHE"), bindingTargetAttr: types.StringValue("kv")})
	list, d2 := types.ListValue(types.ObjectType{AttrTypes: itemType}, []attr.Value{item})
	if d.HasError() || d2.HasError() {
		t.Fatal(d, d2)
	}
	target := bindingRefTarget(bl)
	want := []any{map[string]any{"name": "CACHE", bl.RefMember: map[string]any{"apiVersion": target.APIVersion, "kind": target.Kind, "name": "kv"}}}
	if got, err := encodeValue(bl, list); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("binding list %s encodes as %v (%v), want %v", bl.Wire, got, err, want)
	}
	broken := *bl
	broken.Members = slices.DeleteFunc(slices.Clone(bl.Members), func(m model.Field) bool { return m.Wire == bl.RefMember })
	if got, err := encodeValue(&broken, list); err == nil || err.Error() != "binding list without a reference member" {
		t.Errorf("a binding list without its reference member encodes as %v (%v); want it refused", got, err)
	}
}

// bindingLists are the binding-list fields of every version of every Form of p's
// catalog (one catalog is behind every kind), members included; the test fails when
// there is none.
func bindingLists(t *testing.T, p *Provider) []*model.Field {
	t.Helper()
	var out []*model.Field
	var walk func(fs []model.Field)
	walk = func(fs []model.Field) {
		for i := range fs {
			if fs[i].Kind == model.FieldBindingList {
				out = append(out, &fs[i])
			}
			walk(fs[i].Members)
		}
	}
	for _, f := range p.kinds[0].model.cat.Forms() {
		walk(f.Fields)
	}
	if len(out) == 0 {
		t.Fatal("the catalog declares no binding list")
	}
	return out
}
