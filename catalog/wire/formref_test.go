package wire

import (
	"net/url"
	"strings"
	"testing"
)

var sampleRef = FormRef{APIVersion: "edge.forms.takokit.dev/v1alpha1", Kind: "AtLeastOnceQueue", DefinitionVersion: "0.2.0",
	SchemaDigest: "sha256:" + strings.Repeat("ab", 32)}

func TestFormRefQueryRoundTrip(t *testing.T) {
	q := ExactQuery("prod", sampleRef)
	enc := q.Encode()
	if !strings.Contains(enc, "group=edge.forms.takokit.dev%2Fv1alpha1") || !strings.Contains(enc, "schemaDigest=sha256%3A") {
		t.Errorf("encoded query %s", enc)
	}
	back, err := url.ParseQuery(enc)
	if err != nil {
		t.Fatal(err)
	}
	space, ref, err := ParseExactQuery(back)
	if err != nil || space != "prod" || ref != sampleRef {
		t.Errorf("round trip = %q %v %v", space, ref, err)
	}
	if got, err := ParseFormRefQuery(sampleRef.Query()); err != nil || got != sampleRef {
		t.Errorf("ParseFormRefQuery(Query()) = %v, %v", got, err)
	}
}

func TestParseExactQueryRefuses(t *testing.T) {
	base := func() url.Values { return ExactQuery("prod", sampleRef) }
	cases := map[string]func(url.Values){
		"packageDigest":     func(q url.Values) { q.Set("packageDigest", sampleRef.SchemaDigest) },
		"missing kind":      func(q url.Values) { q.Del(QueryKind) },
		"missing space":     func(q url.Values) { q.Del(QuerySpace) },
		"repeated group":    func(q url.Values) { q.Add(QueryGroup, sampleRef.APIVersion) },
		"repeated space":    func(q url.Values) { q.Add(QuerySpace, "x") },
		"bad digest":        func(q url.Values) { q.Set(QuerySchemaDigest, "sha256:ABC") },
		"bad version":       func(q url.Values) { q.Set(QueryDefinitionVersion, "v1") },
		"bad kind":          func(q url.Values) { q.Set(QueryKind, "queue") },
		"bad space":         func(q url.Values) { q.Set(QuerySpace, " prod") },
		"bad group":         func(q url.Values) { q.Set(QueryGroup, "edge") },
		"extra unknown key": func(q url.Values) { q.Set("x", "1") },
	}
	for name, mutate := range cases {
		q := base()
		mutate(q)
		if _, _, err := ParseExactQuery(q); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	q := base()
	q.Set("packageDigest", "x")
	if _, err := ParseFormRefQuery(q); err == nil || !strings.Contains(err.Error(), "packageDigest") {
		t.Errorf("packageDigest refusal must name the key: %v", err)
	}
}

func TestFormRefString(t *testing.T) {
	s := sampleRef.String()
	for _, part := range []string{sampleRef.APIVersion, "AtLeastOnceQueue@0.2.0", sampleRef.SchemaDigest} {
		if !strings.Contains(s, part) {
			t.Errorf("String() = %q lacks %q", s, part)
		}
	}
}
