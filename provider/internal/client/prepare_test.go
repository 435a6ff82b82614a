package client

import (
	"context"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// TestPrepareRefusesWhatItCannotCheck: a prepare answer that is not the closed I-JSON
// document (a member it does not have, an echoed spec whose number has no binary64
// value) and a request body that is not JSON or whose spec has no canonical form each
// end the prepare with what is wrong; none is taken as a review (a host that cannot be
// discovered: TestEveryCallStopsWhenTheHostCannotBeDiscovered).
func TestPrepareRefusesWhatItCannotCheck(t *testing.T) {
	t.Parallel()
	ref := wire.FormRef{APIVersion: "edge.takoform.com/v1alpha1", Kind: "KVNamespace", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:" + strings.Repeat("0", 64)}
	want := Expect{Ref: ref, Name: "cache", Space: "dev"}
	answer := func(spec, extra string) string {
		return `{"resource":{"apiVersion":"edge.takoform.com/v1alpha1","kind":"KVNamespace","form":{"formRef":` +
			`{"apiVersion":"edge.takoform.com/v1alpha1","kind":"KVNamespace","definitionVersion":"0.1.0","schemaDigest":"sha256:` + strings.Repeat("0", 64) + `"}},` +
			`"metadata":{"name":"cache","space":"dev"},"spec":` + spec + `},"review":{"prepareDigest":"sha256:` + strings.Repeat("1", 64) +
			`","specDigest":"sha256:` + strings.Repeat("2", 64) + `"}` + extra + `}`
	}
	for _, c := range []struct {
		name, answer, body, want string
	}{
		{"an answer with a member the document does not have", answer(`{}`, `,"extra":1`), `{"spec":{}}`, "prepare answer: "},
		{"an echoed spec without a canonical form", answer(`{"size":1e999}`, ""), `{"spec":{}}`, "prepare answer: JSON at /resource/spec/size"},
		{"a request body that is not JSON", answer(`{}`, ""), `{"spec":`, "prepare request body: "},
		{"a spec sent without a canonical form", answer(`{}`, ""), `{"spec":{"size":1e999}}`, "prepare request spec: "},
	} {
		res, err := discoveringHost(t, "/resources/prepare", c.answer).Prepare(context.Background(), []byte(c.body), want, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Prepare = %+v, %v; want an error with %q", c.name, res, err, c.want)
		}
	}
}
