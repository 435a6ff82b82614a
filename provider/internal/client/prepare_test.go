package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// prepareHost is a host that discovers and answers every POST …/resources/prepare
// with answer.
func prepareHost(t *testing.T, answer string) *Client {
	t.Helper()
	var origin string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/resources/prepare") {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(answer))
			return
		}
		w.Write([]byte(strings.ReplaceAll(goodDiscovery, "ORIGIN", origin)))
	}))
	t.Cleanup(srv.Close)
	origin = srv.URL
	c, err := New(Config{Endpoint: srv.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPrepareRefusesWhatItCannotCheck: a prepare answer that is not the closed I-JSON
// document (a member it does not have, an echoed spec whose number has no binary64
// value), a request body that is not JSON or whose spec has no canonical form, and a
// host that cannot be discovered each end the prepare with what is wrong; none is taken
// as a review.
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
		res, err := prepareHost(t, c.answer).Prepare(context.Background(), []byte(c.body), want, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Prepare = %+v, %v; want an error with %q", c.name, res, err, c.want)
		}
	}
	c, err := New(Config{Endpoint: closedPort(t), Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := c.Prepare(context.Background(), []byte(`{"spec":{}}`), want, ""); err == nil || !strings.Contains(err.Error(), "host unreachable at ") {
		t.Errorf("Prepare without discovery = %+v, %v; want discovery's unreachable error", res, err)
	}
}
