package request

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeBody(t *testing.T) {
	type doc struct {
		A int `json:"a,required"`
	}
	for _, tc := range []struct {
		name string
		body string
		fs   []string
		a    int
		ok   bool
	}{
		{name: "closed object", body: `{"a":1}`, a: 1, ok: true},
		{name: "empty", body: ` `},
		{name: "unknown member", body: `{"a":1,"b":2}`},
		{name: "unknown member, json.unknown-members", body: `{"a":1,"b":2}`, fs: []string{"json.unknown-members"}, a: 1, ok: true},
		{name: "duplicate member", body: `{"a":1,"a":2}`},
		{name: "duplicate member, json.duplicates: the last wins", body: `{"a":1,"a":2}`, fs: []string{"json.duplicates"}, a: 2, ok: true},
		{name: "trailing value", body: `{"a":1} {}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			e := DecodeBody([]byte(tc.body), &d, armed(tc.fs...))
			if (e == nil) != tc.ok || tc.ok && d.A != tc.a {
				t.Fatalf("got %+v, %v; want ok=%v a=%d", d, e, tc.ok, tc.a)
			}
		})
	}
}

func TestParseResourceAndGrammars(t *testing.T) {
	name, space := "orders", "prod"
	meta := MetadataDoc{Name: &name, Space: &space}
	form := FormDoc{FormRef: &refA}
	in, e := ParseResource(refA.APIVersion, refA.Kind, form, meta, json.RawMessage(`{"a":1}`))
	if e != nil || in.Spec["a"] == nil {
		t.Fatalf("a valid resource request: %+v %v", in, e)
	}
	if e := in.CheckGrammars(nil); e != nil {
		t.Fatalf("grammars: %v", e)
	}
	for _, spec := range []string{`{}`, "{ \n}", `{"a":{}}`} {
		in, e := ParseResource(refA.APIVersion, refA.Kind, form, meta, json.RawMessage(spec))
		if want := map[string]any{}; spec == `{"a":{}}` {
			if e != nil || !reflect.DeepEqual(in.Spec, map[string]any{"a": map[string]any{}}) {
				t.Errorf("spec %s: %+v %v", spec, in, e)
			}
		} else if e != nil || in.Spec == nil || !reflect.DeepEqual(in.Spec, want) {
			t.Errorf("spec %s decodes to %#v (%v), want an empty map", spec, in.Spec, e)
		}
	}
	for what, spec := range map[string]string{"an array spec": `[]`, "a null spec": `null`} {
		if _, e := ParseResource(refA.APIVersion, refA.Kind, form, meta, json.RawMessage(spec)); e == nil {
			t.Errorf("%s was accepted", what)
		}
	}
	gen := "01"
	if _, e := ParseResource(refA.APIVersion, refA.Kind, form, MetadataDoc{Name: &name, Space: &space, Generation: &gen}, json.RawMessage(`{}`)); e == nil {
		t.Error("a non-canonical metadata.generation was accepted")
	}
	bad := " prod"
	in.Space = bad
	if e := in.CheckGrammars(nil); e == nil || !strings.Contains(e.Message, "/metadata/space") {
		t.Fatalf("a space with leading white space: %v", e)
	}
	if e := in.CheckGrammars(armed("space.lenient")); e != nil {
		t.Fatalf("space.lenient: %v", e)
	}
	in.Space, in.Kind = space, "Other"
	if e := in.CheckGrammars(nil); e == nil {
		t.Fatal("a kind other than the FormRef's was accepted")
	}
}
