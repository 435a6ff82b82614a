package wire

import (
	"strings"
	"testing"
)

// RFC 8785 vectors: key ordering by UTF-16 code units, escaping, literal non-ASCII
// and ECMAScript number printing.
var jcsVectors = []struct{ name, in, want string }{
	{"rfc8785 3.2.2 sample", `{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`,
		`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`},
	{"rfc8785 3.2.3 utf-16 sorting", `{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`,
		"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"\U0001F600\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
	{"control escapes", `["\u0000\u0008\u0009\u000a\u000c\u000d\u001f"]`, `["\u0000\b\t\n\f\r\u001f"]`},
	{"integers", `[0,1,-1,131072,9007199254740991,1e21,1e20]`, `[0,1,-1,131072,9007199254740991,1e+21,100000000000000000000]`},
	{"fractions", `[0.5,1.5,-0.25,1e-7,0.000001,123.456e2]`, `[0.5,1.5,-0.25,1e-7,0.000001,12345.6]`},
	{"whitespace and nesting", "{ \"b\" : [ 1 , { \"d\":1, \"c\":2 } ] ,\n \"a\" : \"x\" }", `{"a":"x","b":[1,{"c":2,"d":1}]}`},
}

func TestCanonicalizeRFC8785Vectors(t *testing.T) {
	for _, v := range jcsVectors {
		got, err := Canonicalize([]byte(v.in))
		if err != nil {
			t.Errorf("%s: %v", v.name, err)
			continue
		}
		if string(got) != v.want {
			t.Errorf("%s:\n got %s\nwant %s", v.name, got, v.want)
		}
	}
}

func TestCanonicalizeRefusesWhatTheGateRefuses(t *testing.T) {
	for _, in := range []string{`{"a":1,"a":1}`, `[-0]`, `[1e400]`, `{} x`} {
		if _, err := Canonicalize([]byte(in)); err == nil {
			t.Errorf("Canonicalize(%s) accepted", in)
		}
	}
}

func TestDigests(t *testing.T) {
	d, err := Digest([]byte(" { } "))
	if err != nil || d != EmptySpecDigest {
		t.Errorf("Digest({}) = %s, %v; want %s", d, err, EmptySpecDigest)
	}
	// docs/protocol.md#digests worked example: the materialized queue spec.
	const want = "sha256:34bc670798d3ca531125b5439fcd00bf3a1b2dcef081013ae0bda35a727efd3c"
	d, err = DigestValue(map[string]any{"messageRetentionSeconds": 345600, "deliveryDelaySeconds": 0})
	if err != nil || d != want {
		t.Errorf("DigestValue(spec) = %s, %v; want %s", d, err, want)
	}
	if got := RawDigest([]byte("abc")); got != "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("RawDigest(abc) = %s", got)
	}
	if !ValidDigest(d) || ValidDigest(strings.ToUpper(d)) {
		t.Errorf("ValidDigest disagrees with the digest grammar")
	}
}

func TestDomainDigest(t *testing.T) {
	v := map[string]any{"marker": "m", "fromForm": map[string]any{"a": 1}}
	got, err := DomainDigest(DomainTransitionEvidence, v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := DigestValue(map[string]any{"format": DomainTransitionEvidence, "marker": "m", "fromForm": map[string]any{"a": 1}})
	if got != want {
		t.Errorf("DomainDigest = %s, want D(value+format) = %s", got, want)
	}
	other, _ := DomainDigest(DomainTransitionRequest, v)
	if other == got {
		t.Errorf("two domains gave the same digest")
	}
	hex, _ := DomainHex(DomainTransitionEvidence, v)
	if "sha256:"+hex != got {
		t.Errorf("DomainHex = %s, want the hex of %s", hex, got)
	}
	if _, err := DomainDigest(DomainTransitionEvidence, map[string]any{"format": "x"}); err == nil {
		t.Errorf("a value carrying its own format member was accepted")
	}
	if _, err := DomainDigest(DomainTransitionEvidence, []int{1}); err == nil {
		t.Errorf("a non-object value was accepted")
	}
}
