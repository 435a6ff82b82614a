package takoform

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/takokit/takokit/catalog/model"
	"github.com/takokit/takokit/catalog/wire"
)

// A loaded catalog never gives the codec or the schema builder these models: a
// reference without a target, a kind they do not know, a default that is not JSON.
// Built by hand, each is refused with what is wrong, never encoded as a zero value,
// and an error inside an object, an object list or a spec reaches the caller.

// TestCodecRefusesAModelItCannotEncode: each refusal, and where it surfaces.
func TestCodecRefusesAModelItCannotEncode(t *testing.T) {
	t.Parallel()
	noTarget := model.Field{Wire: "r", Attr: "r", Kind: model.FieldReference}
	str := model.Field{Wire: "a", Attr: "a", Kind: model.FieldString}
	object := func(members ...model.Field) *model.Field {
		return &model.Field{Wire: "o", Attr: "o", Kind: model.FieldObject, Members: members}
	}
	list := &model.Field{Wire: "l", Attr: "l", Kind: model.FieldObjectList, Members: []model.Field{noTarget}}
	objVal := func(f *model.Field, vals map[string]attr.Value) types.Object {
		v, d := types.ObjectValue(membersType(f).AttrTypes, vals)
		if d.HasError() {
			t.Fatal(d)
		}
		return v
	}
	listVal, d := types.ListValue(membersType(list), []attr.Value{objVal(list, map[string]attr.Value{"r": types.StringValue("x")})})
	if d.HasError() {
		t.Fatal(d)
	}
	for _, c := range []struct {
		name string
		f    *model.Field
		v    attr.Value
		want string
	}{
		{"a reference without a target", &noTarget, types.StringValue("x"), "reference without target"},
		{"a kind it does not know", &model.Field{Wire: "k", Kind: "odd"}, types.StringValue("x"), `field kind "odd" is not supported`},
		{"an unknown member of an object", object(str), objVal(object(str), map[string]attr.Value{"a": types.StringUnknown()}), "member a is unknown"},
		{"an object whose member cannot be encoded", object(noTarget), objVal(object(noTarget), map[string]attr.Value{"r": types.StringValue("x")}), "reference without target"},
		{"an object list whose item cannot be encoded", list, listVal, "reference without target"},
	} {
		if got, err := encodeValue(c.f, c.v); err == nil || err.Error() != c.want {
			t.Errorf("%s: encodeValue = %v, %v; want the error %q", c.name, got, err, c.want)
		}
	}
	form := &model.Form{Ref: wire.FormRef{APIVersion: "x.test/v1", Kind: "Thing"}, Fields: []model.Field{noTarget}}
	if got, err := encodeSpec(form, values{"r": types.StringValue("x")}); err == nil || err.Error() != "Thing field r: reference without target" {
		t.Errorf("a spec with a field it cannot encode: %v, %v; want the error naming the kind and the field", got, err)
	}
}

// TestCodecRefusesWhatItCannotDecode: a kind it does not know, a JSON map whose number
// has no canonical form, an object whose member has another JSON type, a default that is
// not JSON.
func TestCodecRefusesWhatItCannotDecode(t *testing.T) {
	t.Parallel()
	object := &model.Field{Wire: "o", Attr: "o", Kind: model.FieldObject, Members: []model.Field{{Wire: "n", Attr: "n", Kind: model.FieldInteger}}}
	for _, c := range []struct {
		name string
		f    *model.Field
		v    any
		want string
	}{
		{"a kind it does not know", &model.Field{Wire: "k", Kind: "odd"}, "x", `field kind "odd" is not supported`},
		{"a JSON map with a number past binary64", &model.Field{Wire: "m", Kind: model.FieldJSONMap}, map[string]any{"a": json.Number("1e999")}, "not a finite binary64 value"},
		{"an object whose member is another JSON type", object, map[string]any{"n": "three"}, "member n has an unexpected JSON type string"},
	} {
		if got, err := decodeValue(c.f, c.v); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: decodeValue = %v, %v; want an error saying %q", c.name, got, err, c.want)
		}
	}
	if got, err := decodeDefault(&model.Field{Wire: "s", Kind: model.FieldString, Default: json.RawMessage(`{`)}); err == nil {
		t.Errorf("a default that is not JSON decodes as %v", got)
	}
}

// TestDesiredAttributeOfAHandBuiltField: the schema builder refuses a kind it has no
// attribute shape for and a default that is not JSON, naming them; a boolean's and a
// string list's defaults, which no Form of the catalog declares, become the attribute's
// static default.
func TestDesiredAttributeOfAHandBuiltField(t *testing.T) {
	t.Parallel()
	m := kindByType(t, testProvider(t), "takoform_worker_version").model
	if a, err := desiredAttr(m, &model.Field{Wire: "k", Attr: "k", Kind: "odd"}); err == nil || err.Error() != `field kind "odd" has no attribute shape` {
		t.Errorf("a kind without a shape: %v, %v", a, err)
	}
	if a, err := desiredAttr(m, &model.Field{Wire: "s", Attr: "s", Kind: model.FieldString, Default: json.RawMessage(`{`)}); err == nil || !strings.HasPrefix(err.Error(), "default: ") {
		t.Errorf("a default that is not JSON: %v, %v; want an error saying default:", a, err)
	}
	ctx := context.Background()
	a, err := desiredAttr(m, &model.Field{Wire: "b", Attr: "b", Pointer: "/b", Kind: model.FieldBoolean, Default: json.RawMessage(`true`)})
	b, ok := a.(schema.BoolAttribute)
	if err != nil || !ok || b.Default == nil {
		t.Fatalf("a boolean with a default: %#v, %v; want a BoolAttribute with a default", a, err)
	}
	if want := "Desired field b. Omitting it means the default true."; !strings.HasPrefix(b.Description, want) {
		t.Errorf("a field without a description is described %q, want it to start %q", b.Description, want)
	}
	var br defaults.BoolResponse
	if b.Default.DefaultBool(ctx, defaults.BoolRequest{}, &br); !br.PlanValue.Equal(types.BoolValue(true)) {
		t.Errorf("the boolean's default is %v, want true", br.PlanValue)
	}
	a, err = desiredAttr(m, &model.Field{Wire: "l", Attr: "l", Kind: model.FieldStringList, Default: json.RawMessage(`["x","y"]`)})
	l, ok := a.(schema.ListAttribute)
	if err != nil || !ok || l.Default == nil {
		t.Fatalf("a string list with a default: %#v, %v; want a ListAttribute with a default", a, err)
	}
	var lr defaults.ListResponse
	want, _ := types.ListValue(types.StringType, []attr.Value{types.StringValue("x"), types.StringValue("y")})
	if l.Default.DefaultList(ctx, defaults.ListRequest{}, &lr); !lr.PlanValue.Equal(want) {
		t.Errorf("the list's default is %v, want %v", lr.PlanValue, want)
	}
}
