package request

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
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
		msg  string // a fragment of the refusal's message
	}{
		{name: "closed object", body: `{"a":1}`, a: 1, ok: true},
		{name: "empty", body: ` `, msg: "the request body is empty"},
		{name: "empty, json.unknown-members", body: ` `, fs: []string{"json.unknown-members"}, msg: "the request body is empty"},
		{name: "unknown member", body: `{"a":1,"b":2}`, msg: `unknown member "b"`},
		{name: "unknown member, json.unknown-members", body: `{"a":1,"b":2}`, fs: []string{"json.unknown-members"}, a: 1, ok: true},
		// json.unknown-members forgives members, not broken JSON.
		{name: "truncated, json.unknown-members", body: `{"a":1,`, fs: []string{"json.unknown-members"}, msg: "not acceptable JSON"},
		{name: "duplicate member", body: `{"a":1,"a":2}`, msg: "not acceptable JSON"},
		{name: "duplicate member, json.duplicates: the last wins", body: `{"a":1,"a":2}`, fs: []string{"json.duplicates"}, a: 2, ok: true},
		// The last member wins with its number as sent, not rounded through a float.
		{name: "duplicate member, json.duplicates: 2^53+1 stays exact", body: `{"a":1,"a":9007199254740993}`,
			fs: []string{"json.duplicates"}, a: 9007199254740993, ok: true},
		// json.duplicates forgives duplicates, not what the closed decode refuses besides.
		{name: "duplicate and unknown member, json.duplicates", body: `{"a":1,"a":2,"b":3}`, fs: []string{"json.duplicates"},
			msg: `unknown member "b"`},
		{name: "duplicate member and trailing value, json.duplicates", body: `{"a":1,"a":2} {"a":3}`, fs: []string{"json.duplicates"},
			msg: "not acceptable JSON"},
		{name: "trailing value", body: `{"a":1} {}`, msg: "not acceptable JSON"},
		// ... nor broken JSON: what no plain decode reads stays as sent, and is refused.
		{name: "duplicate member, truncated, json.duplicates", body: `{"a":1,"a":2,`, fs: []string{"json.duplicates"}, msg: "not acceptable JSON"},
		{name: "not JSON, json.duplicates", body: `{"a":1,"a":2}}`, fs: []string{"json.duplicates"}, msg: "not acceptable JSON"},
		// ... nor another I-JSON problem its re-encoding would hide: a lone
		// surrogate would become U+FFFD and the body read as something else.
		{name: "duplicate member and lone surrogate, json.duplicates", body: `{"a":1,"a":2,"s":"\ud800"}`, fs: []string{"json.duplicates"},
			msg: "lone high surrogate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			e := DecodeBody([]byte(tc.body), &d, armed(tc.fs...))
			if (e == nil) != tc.ok || tc.ok && d.A != tc.a {
				t.Fatalf("got %+v, %v; want ok=%v a=%d", d, e, tc.ok, tc.a)
			}
			if e != nil && (e.Code != wire.CodeInvalidArgument || !strings.Contains(e.Message, tc.msg)) {
				t.Fatalf("refused %v; want invalid_argument mentioning %q", e, tc.msg)
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

// Each member grammar ParseResource checks refuses with invalid_argument at
// its pointer; what it accepts decodes.
func TestParseResourceMembers(t *testing.T) {
	str := func(s string) *string { return &s }
	badRef := refA
	badRef.SchemaDigest = "sha256:AB"
	for _, tc := range []struct {
		name   string
		form   FormDoc
		meta   MetadataDoc
		spec   string
		refuse string // a fragment of the message; "" = accepted
	}{
		{name: "valid", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Name: str("orders"), Space: str("prod")}, spec: `{}`},
		{name: "null formRef", meta: MetadataDoc{Name: str("orders"), Space: str("prod")}, spec: `{}`, refuse: "/form/formRef is null"},
		{name: "formRef with a bad schemaDigest", form: FormDoc{FormRef: &badRef}, meta: MetadataDoc{Name: str("orders"), Space: str("prod")},
			spec: `{}`, refuse: "/form/formRef: formRef schemaDigest"},
		{name: "no name", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Space: str("prod")}, spec: `{}`, refuse: "/metadata needs name and space"},
		{name: "no space", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Name: str("orders")}, spec: `{}`, refuse: "/metadata needs name and space"},
		{name: "a uid", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Name: str("orders"), Space: str("prod"), UID: str("u-1")}, spec: `{}`},
		{name: "an empty uid", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Name: str("orders"), Space: str("prod"), UID: str("")},
			spec: `{}`, refuse: "/metadata/uid"},
		{name: "a spec cut short", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Name: str("orders"), Space: str("prod")},
			spec: `{"a":`, refuse: "/spec"},
		{name: "a spec of { and one character", form: FormDoc{FormRef: &refA}, meta: MetadataDoc{Name: str("orders"), Space: str("prod")},
			spec: `{1`, refuse: "/spec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, e := ParseResource(refA.APIVersion, refA.Kind, tc.form, tc.meta, json.RawMessage(tc.spec))
			if tc.refuse == "" {
				if e != nil || in == nil || in.Name != "orders" || in.Space != "prod" || in.Ref != refA {
					t.Fatalf("refused or misread: %+v %v", in, e)
				}
				return
			}
			if in != nil || e == nil || e.Code != wire.CodeInvalidArgument || !strings.Contains(e.Message, tc.refuse) {
				t.Fatalf("got %+v %v; want invalid_argument mentioning %q", in, e, tc.refuse)
			}
		})
	}
}

// CheckGrammars refuses a resource name or packageDigest outside its grammar.
func TestCheckGrammarsMembers(t *testing.T) {
	str := func(s string) *string { return &s }
	good := "sha256:" + strings.Repeat("0f", 32)
	for _, tc := range []struct {
		name, resource string
		digest         *string
		refuse         string // a fragment of the message; "" = accepted
	}{
		{name: "valid", resource: "orders"},
		{name: "a packageDigest", resource: "orders", digest: &good},
		{name: "an upper-case name", resource: "Orders", refuse: "/metadata/name"},
		{name: "a packageDigest in upper case", resource: "orders", digest: str(strings.ToUpper(good)), refuse: "/form/packageDigest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &Request{APIVersion: refA.APIVersion, Kind: refA.Kind, Ref: refA, Name: tc.resource, Space: "prod",
				PackageDigest: tc.digest}
			e := in.CheckGrammars(nil)
			if tc.refuse == "" {
				if e != nil {
					t.Fatalf("refused: %v", e)
				}
				return
			}
			if e == nil || e.Code != wire.CodeInvalidArgument || !strings.Contains(e.Message, tc.refuse) {
				t.Fatalf("got %v; want invalid_argument mentioning %q", e, tc.refuse)
			}
		})
	}
}
