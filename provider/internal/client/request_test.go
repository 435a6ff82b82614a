package client

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// What every request carries: the bearer, Accept and the provider's User-Agent
// (its version, "dev" unstamped); a body's Content-Type, JSON unless the request
// names another; a mutation on a connection of its own, never reused, so
// net/http never replays it (docs/provider-design.md#lifecycle).
func TestEveryRequestSaysWhoAndWhatItSends(t *testing.T) {
	t.Parallel()
	type seen struct {
		method, auth, accept, agent, ctype string
		closes                             bool
	}
	var mu sync.Mutex
	var got []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.Method, r.Header.Get("Authorization"), r.Header.Get("Accept"), r.Header.Get("User-Agent"),
			r.Header.Get("Content-Type"), r.Close})
		mu.Unlock()
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	for _, c := range []struct {
		version, agent string
	}{{"1.2.3", "terraform-provider-takoform/1.2.3"}, {"", "terraform-provider-takoform/dev"}} {
		mu.Lock()
		got = nil
		mu.Unlock()
		cl, err := New(Config{Endpoint: srv.URL, Token: "tok-1", Version: c.version})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for _, r := range []Request{
			{Method: http.MethodGet, URL: srv.URL + "/a"},
			{Method: http.MethodPut, URL: srv.URL + "/a", Body: []byte(`{}`), Header: http.Header{"If-Match": {`"3"`}}},
			{Method: http.MethodPost, URL: srv.URL + "/blob", Body: []byte("raw"), ContentType: "application/octet-stream"},
			{Method: http.MethodDelete, URL: srv.URL + "/a"},
		} {
			if _, err := cl.do(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		want := []seen{
			{"GET", "Bearer tok-1", "application/json", c.agent, "", false},
			{"PUT", "Bearer tok-1", "application/json", c.agent, "application/json", true},
			{"POST", "Bearer tok-1", "application/json", c.agent, "application/octet-stream", true},
			{"DELETE", "Bearer tok-1", "application/json", c.agent, "", true},
		}
		mu.Lock()
		arrived := got
		mu.Unlock()
		if len(arrived) != len(want) {
			t.Fatalf("%d requests arrived, want %d", len(arrived), len(want))
		}
		for i := range want {
			if arrived[i] != want[i] {
				t.Errorf("version %q: request %d arrived as %+v, want %+v", c.version, i, arrived[i], want[i])
			}
		}
	}
	if _, err := New(Config{Endpoint: srv.URL, Token: ""}); err == nil || err.Error() != "token is empty" {
		t.Errorf("an empty token: %v", err)
	}
}

// A request's own headers travel as given (a fence, an Idempotency-Key).
func TestRequestHeadersTravel(t *testing.T) {
	t.Parallel()
	var ifMatch, key string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ifMatch, key = r.Header.Get("If-Match"), r.Header.Get("Idempotency-Key")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	cl, _ := New(Config{Endpoint: srv.URL, Token: "t"})
	if _, err := cl.do(context.Background(), Request{Method: http.MethodPut, URL: srv.URL, Body: []byte(`{}`),
		Header: http.Header{"If-Match": {`"3"`}, "Idempotency-Key": {"takoform-1"}}}); err != nil {
		t.Fatal(err)
	}
	if ifMatch != `"3"` || key != "takoform-1" {
		t.Errorf("headers arrived as If-Match %q, Idempotency-Key %q", ifMatch, key)
	}
}

// Answers the client refuses to interpret: any 3xx (300 included), and a body over
// MaxBody; a body of exactly MaxBody is read.
func TestRedirectsAndOversizedBodiesAreProtocolInvalid(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/300":
			w.WriteHeader(http.StatusMultipleChoices)
		case "/399":
			w.WriteHeader(399)
		case "/big":
			w.Write([]byte(strings.Repeat("x", MaxBody+1)))
		case "/full":
			w.Write([]byte(strings.Repeat("x", MaxBody)))
		}
	}))
	defer srv.Close()
	cl, _ := New(Config{Endpoint: srv.URL, Token: "t"})
	for path, want := range map[string]string{"/300": "redirect", "/399": "redirect", "/big": "response body exceeds 8 MiB"} {
		_, err := cl.do(context.Background(), Request{Method: http.MethodGet, URL: srv.URL + path})
		var pe *ProtocolError
		if !errors.As(err, &pe) || !strings.Contains(pe.Reason, want) {
			t.Errorf("GET %s: %v, want a protocol error saying %q", path, err, want)
		}
	}
	if r, err := cl.do(context.Background(), Request{Method: http.MethodGet, URL: srv.URL + "/full"}); err != nil || len(r.Body) != MaxBody {
		t.Errorf("a body of exactly %d bytes: %v", MaxBody, err)
	}
}

// IdempotencyKey is "takoform-" and the hex SHA-256 of the RFC 8785 text of the
// array [operation, apiVersion, kind, definitionVersion, schemaDigest, space, name,
// uid, generation, bodyDigest] (docs/provider-design.md#lifecycle), bodyDigest ""
// without a body. The expected texts are written out here: a key is what a host
// compares across retries and provider versions, so every member and its order
// count. The name holds "<&>", which encoding/json would escape and RFC 8785 does not.
func TestIdempotencyKeyIsTheDocumentedDigest(t *testing.T) {
	t.Parallel()
	ref := wire.FormRef{APIVersion: "a.b/v1", Kind: "K", DefinitionVersion: "0.1.0", SchemaDigest: "sha256:00"}
	body := sha256.Sum256([]byte(`{"a":1}`))
	for _, c := range []struct {
		op, uid, gen string
		body         []byte
		text         string
	}{
		{"apply", "", "", []byte(`{"a":1}`), `["apply","a.b/v1","K","0.1.0","sha256:00","dev","n<&>","","","` + hex.EncodeToString(body[:]) + `"]`},
		{"delete", "u-1", "4", nil, `["delete","a.b/v1","K","0.1.0","sha256:00","dev","n<&>","u-1","4",""]`},
	} {
		got, err := IdempotencyKey(c.op, ref, "dev", "n<&>", c.uid, c.gen, c.body)
		sum := sha256.Sum256([]byte(c.text))
		if want := "takoform-" + hex.EncodeToString(sum[:]); err != nil || got != want {
			t.Errorf("%s: key %s, want %s (the digest of %s)", c.op, got, want, c.text)
		}
	}
}
