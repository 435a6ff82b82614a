package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

func TestParseEndpointRules(t *testing.T) {
	t.Parallel()
	ok := []string{"https://host.example", "https://host.example/", "http://127.0.0.1:8484", "http://localhost:1", "http://[::1]:9",
		"http://LocalHost:2", "http://127.8.9.10:3"}
	for _, e := range ok {
		if _, err := ParseEndpoint(e); err != nil {
			t.Errorf("%s refused: %v", e, err)
		}
	}
	bad := map[string]string{
		"http://host.example":          "not loopback",
		"ftp://host.example":           "https",
		"https://u:p@host.example":     "user information",
		"https://host.example/api":     "no path",
		"https://host.example?x=1":     "query",
		"https://host.example#f":       "fragment",
		"http://10.0.0.1":              "not loopback",
		"https://host.example/%2Fapis": "no path",
		"https://host.example/%2F":     "no path", // decoded, the path is "//"
		"https://host.example?":        "query",   // an empty query, still a query
		"https://host.example#":        "fragment",
		"https://":                     "absolute",
		"//host.example":               "absolute",
		"http://128.0.0.1":             "not loopback",
	}
	for e, why := range bad {
		if _, err := ParseEndpoint(e); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: got %v, want an error saying %q", e, err, why)
		}
	}
}

// TestParseEndpointSaysTheSchemeItLacks: an endpoint written without a scheme
// (host:port, as one writes hostsim's --addr) is answered with the URL to write,
// http for a loopback host and https otherwise. Before, "127.0.0.1:8484" got Go's
// "first path segment in URL cannot contain colon", and "localhost:8484" (a URL of
// scheme "localhost") "must be an absolute URL".
func TestParseEndpointSaysTheSchemeItLacks(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"127.0.0.1:8484":   `endpoint "127.0.0.1:8484" has no scheme: write http://127.0.0.1:8484`,
		"localhost:8484":   `endpoint "localhost:8484" has no scheme: write http://localhost:8484`,
		"[::1]:9":          `endpoint "[::1]:9" has no scheme: write http://[::1]:9`,
		"host.example":     `endpoint "host.example" has no scheme: write https://host.example`,
		"host.example:443": `endpoint "host.example:443" has no scheme: write https://host.example:443`,
	} {
		_, err := ParseEndpoint(raw)
		if err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %q", raw, err, want)
		}
	}
}

const goodDiscovery = `{"api_versions":["forms.takoform.com/v1beta1"],
"features":{"service_forms":true,"exact_form_ref":true,"optimistic_concurrency":true,"idempotent_lifecycle":true,
"operations":true,"artifact_upload":true,"support_profiles":true,"resource_form_transition":true},
"endpoints":{"api":"ORIGIN/apis/forms.takoform.com/v1beta1","operations":"ORIGIN/apis/forms.takoform.com/v1beta1/operations"}}`

// discoveringHost is a loopback host that serves the discovery document and answers
// every request whose path ends in route with answer (JSON, 200); a client of it.
func discoveringHost(t *testing.T, route, answer string) *Client {
	t.Helper()
	return discoveringHostServing(t, route, func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(answer)) })
}

// discoveringHostServing is discoveringHost with serve answering route (its
// Content-Type set to JSON first).
func discoveringHostServing(t *testing.T, route string, serve http.HandlerFunc) *Client {
	t.Helper()
	var origin string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, route) {
			w.Header().Set("Content-Type", "application/json")
			serve(w, r)
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

const discoveryFeatures = `{"service_forms":true,"exact_form_ref":true,"optimistic_concurrency":true,"idempotent_lifecycle":true,` +
	`"operations":true,"artifact_upload":true,"support_profiles":true,"resource_form_transition":true}`

// endpoint sets a discovery document's endpoints.operations to url.
func endpoint(doc, url string) string {
	return strings.Replace(doc, `"operations":"https://host.example/apis/forms.takoform.com/v1beta1/operations"`, `"operations":"`+url+`"`, 1)
}

// issuer adds endpoints.oidc_issuer to a discovery document.
func issuer(doc, url string) string {
	return strings.Replace(doc, `/operations"}`, `/operations","oidc_issuer":"`+url+`"}`, 1)
}

func TestDiscoveryRules(t *testing.T) {
	t.Parallel()
	c, err := New(Config{Endpoint: "https://Host.Example", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	doc := func(origin string) string { return strings.ReplaceAll(goodDiscovery, "ORIGIN", origin) }
	d, err := c.parseDiscovery([]byte(doc("https://host.example:443")))
	if err != nil {
		t.Fatalf("good document refused: %v", err)
	}
	if d.API != "https://host.example:443/apis/forms.takoform.com/v1beta1" || !d.Features["resource_form_transition"] {
		t.Errorf("discovery = %+v", d)
	}
	cases := map[string]string{
		strings.Replace(doc("https://host.example"), `"operations":true,`, "", 1):                                              "features.operations must be true",
		strings.Replace(doc("https://host.example"), `v1beta1"],`, `v1beta1","x"],`, 1):                                        "api_versions",
		strings.Replace(doc("https://host.example"), `"resource_form_transition":true`, `"resource_form_transition":"yes"`, 1): "not strict",
		doc("https://other.example"):     "not on the configured origin",
		doc("http://host.example"):       "not on the configured origin",
		doc("https://host.example:8443"): "not on the configured origin",
		strings.Replace(doc("https://host.example"), "v1beta1/operations", "v1beta1/ops", 1):                                                    "must have the path",
		strings.Replace(doc("https://host.example"), "/apis/forms.takoform.com/v1beta1\",\"op", "/apis/forms.takoform.com%2Fv1beta1\",\"op", 1): "percent-escape",
		strings.Replace(doc("https://host.example"), `}}`, `,"extra":"x"}}`, 1):                                                                 "not strict",
		doc("https://host.example") + " {}": "not strict",
		strings.Replace(doc("https://host.example"), `"api":"https://host.example/apis/forms.takoform.com/v1beta1",`, "", 1): "endpoints.api is required",
		strings.Replace(doc("https://host.example"), `"forms.takoform.com/v1beta1"]`, `"forms.takoform.com/v1alpha3"]`, 1):   "api_versions must be exactly",
		`{"api_versions":["forms.takoform.com/v1beta1"],"features":` + discoveryFeatures + `}`:                               "endpoints.api is required",
		// an endpoint must be an absolute URL on the origin, with no user, query, fragment or other scheme
		endpoint(doc("https://host.example"), "//host.example/apis/forms.takoform.com/v1beta1/operations"):           "is not an absolute URL",
		endpoint(doc("https://host.example"), "https:///apis/forms.takoform.com/v1beta1/operations"):                 "is not an absolute URL",
		endpoint(doc("https://host.example"), "https://u:p@host.example/apis/forms.takoform.com/v1beta1/operations"): "carries user information",
		endpoint(doc("https://host.example"), "https://host.example/apis/forms.takoform.com/v1beta1/operations?"):    "carries a query or fragment",
		endpoint(doc("https://host.example"), "https://host.example/apis/forms.takoform.com/v1beta1/operations#"):    "carries a query or fragment",
		endpoint(doc("https://host.example"), "http://host.example:443/apis/forms.takoform.com/v1beta1/operations"):  "not on the configured origin",
		// an OIDC issuer is an absolute https URL
		issuer(doc("https://host.example"), "http://issuer.example"): "endpoints.oidc_issuer must be an absolute https URL",
		issuer(doc("https://host.example"), "https:///x"):            "endpoints.oidc_issuer must be an absolute https URL",
	}
	if _, err := c.parseDiscovery([]byte(issuer(doc("https://host.example"), "https://issuer.example/realm"))); err != nil {
		t.Errorf("an https issuer refused: %v", err)
	}
	for body, want := range cases {
		_, err := c.parseDiscovery([]byte(body))
		var de *DiscoveryError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), want) {
			t.Errorf("want a discovery error with %q, got %v\n%s", want, err, body)
		}
	}
}

func TestRedirectIsProtocolInvalidAndNotFollowed(t *testing.T) {
	t.Parallel()
	followed := false
	mux := http.NewServeMux()
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) { followed = true })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/elsewhere", http.StatusFound) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := New(Config{Endpoint: srv.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Discover(context.Background())
	var p *ProtocolError
	if !errors.As(err, &p) || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("got %v, want a protocol-invalid redirect", err)
	}
	if followed {
		t.Error("the redirect was followed")
	}
}

func TestDiscoveryFailureIsNotCached(t *testing.T) {
	t.Parallel()
	fail := true
	var srvURL string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("discovery without the bearer")
		}
		if fail {
			w.WriteHeader(500)
			return
		}
		w.Write([]byte(strings.ReplaceAll(goodDiscovery, "ORIGIN", srvURL)))
	}))
	defer srv.Close()
	srvURL = srv.URL
	c, _ := New(Config{Endpoint: srv.URL, Token: "tok"})
	if _, err := c.Discover(context.Background()); err == nil {
		t.Fatal("a 500 discovery passed")
	}
	fail = false
	if _, err := c.Discover(context.Background()); err != nil {
		t.Fatalf("second attempt: %v", err)
	}
	fail = true
	if _, err := c.Discover(context.Background()); err != nil {
		t.Fatalf("a successful discovery must be cached: %v", err)
	}
}

func TestIdempotencyKeyIsDeterministic(t *testing.T) {
	t.Parallel()
	ref := wire.FormRef{APIVersion: "a.b/v1", Kind: "K", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:00"}
	k1, _ := IdempotencyKey("apply", ref, "dev", "n", "", "", []byte(`{"a":1}`))
	k2, _ := IdempotencyKey("apply", ref, "dev", "n", "", "", []byte(`{"a":1}`))
	k3, _ := IdempotencyKey("apply", ref, "dev", "n", "u-1", "1", []byte(`{"a":1}`))
	k4, _ := IdempotencyKey("delete", ref, "dev", "n", "u-1", "1", nil)
	if k1 != k2 || k1 == k3 || k3 == k4 || !strings.HasPrefix(k1, "takoform-") || len(k1) != len("takoform-")+64 {
		t.Errorf("keys: %s %s %s %s", k1, k2, k3, k4)
	}
}

func TestInvalidEnvelopeIsProtocolInvalid(t *testing.T) {
	t.Parallel()
	cases := map[int]string{
		400: `{"error":{"code":"no_such_code","message":"m","requestId":"r","retryable":false}}`,
		404: `{"error":{"code":"invalid_argument","message":"m","requestId":"r","retryable":false}}`,
		409: `{"error":{"code":"uid_mismatch","message":"m","requestId":"r","retryable":true}}`,
		502: `<html>bad gateway</html>`,
	}
	for status, body := range cases {
		err := refusal(&Response{Status: status, Body: []byte(body), Header: http.Header{}})
		var p *ProtocolError
		if !errors.As(err, &p) {
			t.Errorf("%d %s: got %v, want protocol-invalid", status, body, err)
		}
		if IsNotFound(err) {
			t.Errorf("%d: a protocol-invalid answer read as absent", status)
		}
	}
	err := refusal(&Response{Status: 404, Header: http.Header{}, Body: []byte(`{"error":{"code":"resource_not_found","message":"m","requestId":"r","retryable":false}}`)})
	if !IsNotFound(err) {
		t.Errorf("404 resource_not_found is absent: %v", err)
	}
}

func TestTransitionRequestIsAFunctionOfContent(t *testing.T) {
	t.Parallel()
	from := TxForm{FormRef: wire.FormRef{APIVersion: "a.b/v1", Kind: "Q", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:" + strings.Repeat("1", 64)}, PackageDigest: "sha256:" + strings.Repeat("2", 64)}
	to := TxForm{FormRef: wire.FormRef{APIVersion: "a.b/v1", Kind: "Q", DefinitionVersion: "0.2.0", SchemaDigest: "sha256:" + strings.Repeat("3", 64)}, PackageDigest: "sha256:" + strings.Repeat("4", 64)}
	in := TxInput{Marker: "m", From: from, To: to, Name: "orders", Space: "dev",
		Expected: TxExpected{UID: "u-1", Generation: "1", Revision: "3"}, Spec: map[string]any{"a": 1}}
	a, err := BuildTransition(in)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := BuildTransition(in)
	if a.OperationID != b.OperationID || string(a.Body) != string(b.Body) || !strings.HasPrefix(a.OperationID, "formtx_") || len(a.OperationID) != 7+64 {
		t.Fatalf("not deterministic: %s %s", a.OperationID, b.OperationID)
	}
	kept, err := ParseKept(a.Body)
	if err != nil || kept.RequestDigest != a.RequestDigest || kept.SpecDigest != a.SpecDigest || kept.OperationID != a.OperationID {
		t.Errorf("kept bytes do not rebuild the request: %v %+v", err, kept)
	}
	in.Expected.Revision = "5"
	if c, _ := BuildTransition(in); c.OperationID == a.OperationID {
		t.Error("a moved revision must give a new operation id")
	}
}
