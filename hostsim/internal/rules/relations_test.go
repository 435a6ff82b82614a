package rules

import (
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog"
	"github.com/takokit/takokit/catalog/wire"
)

// A synthetic family: nothing here is a kind of the real catalog, which proves the
// rules derive everything from the Form model.
const grp = "test.forms.example.dev/v1alpha1"

func dg(c byte) string { return "sha256:" + strings.Repeat(string(c), 64) }

var (
	ifOwner  = wire.InterfaceRef{APIVersion: wire.InterfaceAPIVersion, Name: "owner.runtime", Version: "1.0.0", SchemaDigest: dg('1')}
	ifStore  = wire.InterfaceRef{APIVersion: wire.InterfaceAPIVersion, Name: "store.kv", Version: "1.0.0", SchemaDigest: dg('2')}
	bStore   = wire.BindingRef{APIVersion: wire.BindingAPIVersion, Name: "consumer.store", Version: "1.0.0", SchemaDigest: dg('3')}
	partRef  = wire.FormRef{APIVersion: grp, Kind: "Part", DefinitionVersion: "0.1.0", SchemaDigest: dg('4')}
	partRef2 = wire.FormRef{APIVersion: grp, Kind: "Part", DefinitionVersion: "0.2.0", SchemaDigest: dg('5')}
	ownerRef = wire.FormRef{APIVersion: grp, Kind: "Owner", DefinitionVersion: "0.1.0", SchemaDigest: dg('6')}
	storeRef = wire.FormRef{APIVersion: grp, Kind: "Store", DefinitionVersion: "0.1.0", SchemaDigest: dg('7')}
)

func consumerForm() *catalog.Form {
	nameMember := catalog.Field{Wire: "name", Pointer: "/stores/*/name", Kind: catalog.FieldString, Pattern: `^[A-Za-z_$][A-Za-z0-9_$]*$`}
	resMember := catalog.Field{Wire: "resource", Pointer: "/stores/*/resource", Kind: catalog.FieldReference,
		Ref: &catalog.RefTarget{APIVersion: grp, Kind: "Store", RequiredInterface: &ifStore}}
	return &catalog.Form{
		Ref:  wire.FormRef{APIVersion: grp, Kind: "Consumer", DefinitionVersion: "0.1.0", SchemaDigest: dg('8')},
		Role: "revision",
		Fields: []catalog.Field{
			{Wire: "owner", Pointer: "/owner", Kind: catalog.FieldReference, Required: true,
				Ref: &catalog.RefTarget{APIVersion: grp, Kind: "Owner", RequiredInterface: &ifOwner}},
			{Wire: "stores", Pointer: "/stores", Kind: catalog.FieldBindingList, Binding: &bStore, RefMember: "resource",
				Members: []catalog.Field{nameMember, resMember}},
			{Wire: "parts", Pointer: "/parts", Kind: catalog.FieldObjectList, Members: []catalog.Field{
				{Wire: "weight", Pointer: "/parts/*/weight", Kind: catalog.FieldInteger},
				{Wire: "part", Pointer: "/parts/*/part", Kind: catalog.FieldReference,
					Ref: &catalog.RefTarget{APIVersion: grp, Kind: "Part", TargetFormRefs: []wire.FormRef{partRef}}}}},
			{Wire: "backup", Pointer: "/backup", Kind: catalog.FieldReference,
				Ref: &catalog.RefTarget{APIVersion: grp, Kind: "Store", RequiredInterface: &ifStore}},
		},
		Relations: []catalog.Relation{
			{Pointer: "/owner", TargetAPIVersion: grp, TargetKind: "Owner", RequiredInterface: &ifOwner},
			{Pointer: "/stores/*/resource", TargetAPIVersion: grp, TargetKind: "Store", RequiredInterface: &ifStore, Binding: &bStore},
			{Pointer: "/parts/*/part", TargetAPIVersion: grp, TargetKind: "Part", TargetFormRefs: []wire.FormRef{partRef}},
			{Pointer: "/backup", TargetAPIVersion: grp, TargetKind: "Store", RequiredInterface: &ifStore},
		},
		Accepted: []wire.BindingRef{bStore},
	}
}

func node(kind, name string) map[string]any {
	return map[string]any{"apiVersion": grp, "kind": kind, "name": name}
}

func TestExtractReferences(t *testing.T) {
	spec := map[string]any{
		"owner": node("Owner", "api"),
		"stores": []any{
			map[string]any{"name": "CACHE", "resource": node("Store", "cache")},
			map[string]any{"name": "SESSIONS", "resource": node("Store", "sessions")},
		},
		"parts": []any{
			map[string]any{"weight": float64(6000), "part": node("Part", "v1")},
			map[string]any{"weight": float64(4000), "part": node("Part", "v2")},
		},
	}
	refs, r := ExtractReferences(consumerForm(), spec)
	if r != nil {
		t.Fatal(r)
	}
	type row struct{ ptr, rel, kind, name, binding, entryPtr, entryName string }
	want := []row{
		{"/owner", "/owner", "Owner", "api", "", "", ""},
		{"/stores/0/resource", "/stores/*/resource", "Store", "cache", "consumer.store", "/stores/0", "CACHE"},
		{"/stores/1/resource", "/stores/*/resource", "Store", "sessions", "consumer.store", "/stores/1", "SESSIONS"},
		{"/parts/0/part", "/parts/*/part", "Part", "v1", "", "", ""},
		{"/parts/1/part", "/parts/*/part", "Part", "v2", "", "", ""},
	}
	if len(refs) != len(want) {
		t.Fatalf("got %d references %+v, want %d (the absent optional /backup yields none)", len(refs), refs, len(want))
	}
	for i, w := range want {
		g := refs[i]
		b := ""
		if g.Binding != nil {
			b = g.Binding.Name
		}
		got := row{g.Pointer, g.Relation.Pointer, g.Kind, g.Name, b, g.EntryPointer, g.EntryName}
		if got != w || g.APIVersion != grp {
			t.Errorf("reference %d = %+v, want %+v", i, got, w)
		}
	}
}

func TestExtractReferencesBindingFromField(t *testing.T) {
	// A catalog that sets the binding only on the field still yields it.
	f := consumerForm()
	f.Relations[1].Binding = nil
	refs, r := ExtractReferences(f, map[string]any{"owner": node("Owner", "a"),
		"stores": []any{map[string]any{"name": "X", "resource": node("Store", "s")}}})
	if r != nil || len(refs) != 2 || refs[1].Binding == nil || *refs[1].Binding != bStore {
		t.Fatalf("refs = %+v, %v", refs, r)
	}
}

func TestExtractReferencesRefusesMalformedNodes(t *testing.T) {
	cases := []struct {
		spec map[string]any
		ptr  string
		says string
	}{
		{map[string]any{"owner": "api"}, "/owner", "got a string"},
		{map[string]any{"owner": map[string]any{"apiVersion": grp, "kind": "Owner"}}, "/owner/name", `string "name"`},
		{map[string]any{"owner": node("Owner", "a"), "parts": []any{map[string]any{"part": []any{}}}}, "/parts/0/part", "got an array"},
		{map[string]any{"owner": map[string]any{"apiVersion": grp, "kind": float64(1), "name": "a"}}, "/owner/kind", "got a number"},
	}
	for _, c := range cases {
		_, r := ExtractReferences(consumerForm(), c.spec)
		if r == nil || r.Code != wire.CodeInvalidArgument || r.Pointer != c.ptr || !strings.Contains(r.Message, c.says) || !strings.HasPrefix(r.Message, c.ptr) {
			t.Errorf("spec %v: refusal %+v, want invalid_argument at %s saying %q", c.spec, r, c.ptr, c.says)
		}
	}
}

func TestExtractReferencesEmpty(t *testing.T) {
	refs, r := ExtractReferences(&catalog.Form{}, map[string]any{"x": 1})
	if r != nil || len(refs) != 0 {
		t.Fatalf("a Form without relations yields %v, %v", refs, r)
	}
}

// The first malformed node is the one refused, not a later one.
func TestExtractReferencesRefusesTheFirstMalformedNode(t *testing.T) {
	_, r := ExtractReferences(consumerForm(), map[string]any{"owner": node("Owner", "a"),
		"parts": []any{map[string]any{"part": "p"}, map[string]any{"part": []any{}}}})
	if r == nil || r.Pointer != "/parts/0/part" || !strings.Contains(r.Message, "got a string") {
		t.Fatalf("refusal %+v, want the first malformed part (/parts/0/part, a string)", r)
	}
}

// A relation's own binding wins over its field's; a binding-list entry's name
// is the member that is not the reference, whatever it is called and wherever
// it stands.
func TestExtractReferencesBindingAndEntryName(t *testing.T) {
	f := consumerForm()
	other := wire.BindingRef{APIVersion: wire.BindingAPIVersion, Name: "consumer.other", Version: "1.0.0", SchemaDigest: dg('9')}
	f.Relations[1].Binding = &other
	stores := &f.Fields[1]
	stores.Members = []catalog.Field{stores.Members[1], {Wire: "binding", Pointer: "/stores/*/binding", Kind: catalog.FieldString}}
	refs, r := ExtractReferences(f, map[string]any{"owner": node("Owner", "a"),
		"stores": []any{map[string]any{"binding": "CACHE", "resource": node("Store", "s")}}})
	if r != nil || len(refs) != 2 {
		t.Fatalf("refs = %+v, %v", refs, r)
	}
	if got := refs[1]; got.Binding == nil || *got.Binding != other || got.EntryName != "CACHE" {
		t.Errorf("reference %+v: want the relation's binding %s and the entry name CACHE (member \"binding\")", got, other.Name)
	}
}

// An optional reference written as JSON null is absent, like one left out: it
// yields no reference and no refusal, at the top and inside a list entry.
func TestExtractReferencesTreatsNullAsAbsent(t *testing.T) {
	refs, r := ExtractReferences(consumerForm(), map[string]any{"owner": node("Owner", "a"), "backup": nil,
		"parts": []any{map[string]any{"weight": float64(1), "part": nil}}})
	if r != nil || len(refs) != 1 || refs[0].Pointer != "/owner" {
		t.Fatalf("refs = %+v, refusal %v; want only /owner (null /backup and /parts/0/part are absent)", refs, r)
	}
}

// When the model does not say which member of a binding-list item is the
// reference, the entry's name is the member that is not a reference node.
func TestEntryNameIsTheMemberThatIsNotAReference(t *testing.T) {
	f := consumerForm()
	stores := &f.Fields[1]
	stores.RefMember = ""
	stores.Members = []catalog.Field{stores.Members[1], {Wire: "label", Pointer: "/stores/*/label", Kind: catalog.FieldString}}
	refs, r := ExtractReferences(f, map[string]any{"owner": node("Owner", "a"),
		"stores": []any{map[string]any{"label": "CACHE", "resource": node("Store", "s")}}})
	if r != nil || len(refs) != 2 {
		t.Fatalf("refs = %+v, %v", refs, r)
	}
	if got := refs[1]; got.EntryPointer != "/stores/0" || got.EntryName != "CACHE" {
		t.Errorf("entry %s named %q, want /stores/0 named CACHE (member \"label\", the one that is not a reference)", got.EntryPointer, got.EntryName)
	}
}

// The JSON Pointer helpers: "" is the whole document (no tokens), "~1" and
// "~0" unescape, and a pointer past an array's ends, at a token that is no
// index, or through a scalar addresses nothing.
func TestPointersAddressExactlyWhatTheyName(t *testing.T) {
	doc := map[string]any{"a/b": map[string]any{"~x": "v"}, "list": []any{"zero", "one"}}
	if got := splitPointer(""); len(got) != 0 {
		t.Errorf(`splitPointer("") = %q, want no tokens`, got)
	}
	if got, ok := lookup(doc, splitPointer("")).(map[string]any); !ok || len(got) != len(doc) {
		t.Errorf(`lookup of "" = %v, want the whole document`, got)
	}
	if got := lookup(doc, splitPointer("/a~1b/~0x")); got != "v" {
		t.Errorf(`lookup of "/a~1b/~0x" = %v, want v`, got)
	}
	if got := lookup(doc, splitPointer("/list/1")); got != "one" {
		t.Errorf(`lookup of "/list/1" = %v, want one`, got)
	}
	for _, p := range []string{"/list/2", "/list/-1", "/list/x", "/list/0/deeper", "/missing/x"} {
		if got := lookup(doc, splitPointer(p)); got != nil {
			t.Errorf("lookup of %q = %v, want nothing", p, got)
		}
	}
	for p, want := range map[string]string{"": "", "/a~1b/~0x": "a/b", "/list": "list"} {
		if got := firstToken(p); got != want {
			t.Errorf("firstToken(%q) = %q, want %q", p, got, want)
		}
	}
}
