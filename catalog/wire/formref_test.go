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

// TestParseExactQueryRefuses: each malformed exact-FormRef query is refused with the message
// that names its key and what to send instead (hosts answer these messages to clients).
func TestParseExactQueryRefuses(t *testing.T) {
	base := func() url.Values { return ExactQuery("prod", sampleRef) }
	cases := map[string]struct {
		mutate func(url.Values)
		want   string
	}{
		"packageDigest": {func(q url.Values) { q.Set("packageDigest", sampleRef.SchemaDigest) },
			`query key "packageDigest" is not part of the exact FormRef; send only space, group, kind, definitionVersion and schemaDigest (packageDigest is never identity)`},
		"missing kind": {func(q url.Values) { q.Del(QueryKind) },
			`query key "kind" is missing; the exact FormRef needs group, kind, definitionVersion and schemaDigest`},
		"missing space": {func(q url.Values) { q.Del(QuerySpace) },
			`query key "space" is missing; every exact-FormRef query names its space`},
		"repeated group": {func(q url.Values) { q.Add(QueryGroup, sampleRef.APIVersion) },
			`query key "group" appears 2 times; send it exactly once`},
		"repeated space": {func(q url.Values) { q.Add(QuerySpace, "x") },
			`query key "space" appears 2 times; send it exactly once`},
		"bad digest": {func(q url.Values) { q.Set(QuerySchemaDigest, "sha256:ABC") },
			`formRef schemaDigest "sha256:ABC" must be sha256: followed by 64 lowercase hex digits`},
		"bad version": {func(q url.Values) { q.Set(QueryDefinitionVersion, "v1") },
			`formRef definitionVersion "v1" is not a semantic version such as 0.1.0`},
		"bad kind": {func(q url.Values) { q.Set(QueryKind, "queue") },
			`formRef kind "queue" must match ^[A-Z][A-Za-z0-9]{0,63}$`},
		"bad space": {func(q url.Values) { q.Set(QuerySpace, " prod") },
			`space " prod" starts or ends with whitespace or U+FEFF; spaces are never trimmed, so remove it`},
		"bad group": {func(q url.Values) { q.Set(QueryGroup, "edge") },
			`formRef apiVersion "edge" is not a Form group such as edge.forms.takokit.dev/v1alpha1`},
		"extra unknown key": {func(q url.Values) { q.Set("x", "1") },
			`query key "x" is not part of the exact FormRef; send only space, group, kind, definitionVersion and schemaDigest (packageDigest is never identity)`},
	}
	for name, c := range cases {
		q := base()
		c.mutate(q)
		if _, _, err := ParseExactQuery(q); err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
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
