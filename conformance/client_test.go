package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// sent is what a scripted host saw of one request.
type sent struct {
	path, rawPath, auth, accept, agent, contentType, extra string
}

// scripted answers every request with answer and records what it saw.
func scripted(t *testing.T, answer func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *[]sent) {
	t.Helper()
	var seen []sent
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, sent{r.URL.Path, r.URL.RawPath, r.Header.Get("Authorization"), r.Header.Get("Accept"), r.Header.Get("User-Agent"),
			r.Header.Get("Content-Type"), r.Header.Get("X-Extra")})
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

// A request carries the client's bearer token unless it says otherwise (none,
// or a raw value of its own), JSON's Accept and the runner's User-Agent, a
// Content-Type only with a body, and its own headers last; a trailing slash of
// the origin is not doubled, and an escaped path goes as written.
func TestEveryRequestCarriesWhatItSays(t *testing.T) {
	srv, seen := scripted(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
	ctx := context.Background()
	c := NewClient(srv.URL+"/", "primary", "tok")
	anon := NewClient(srv.URL, "anon", "")
	for _, do := range []struct {
		c *Client
		r Req
	}{
		{c, Req{Method: "GET", Target: "/a%2Fb"}},
		{c, Req{Method: "PUT", Target: "/x", Body: []byte(`{}`), Header: map[string]string{"X-Extra": "1", "Accept": "text/plain"}}},
		{c, Req{Method: "GET", Target: "/x", NoAuth: true}},
		{c, Req{Method: "GET", Target: "/x", RawAuth: "Basic Zm9v"}},
		{anon, Req{Method: "GET", Target: "/x"}},
	} {
		if _, err := do.c.Do(ctx, do.r); err != nil {
			t.Fatal(err)
		}
	}
	want := []sent{
		{"/a/b", "/a%2Fb", "Bearer tok", "application/json", "takokit-conformance", "", ""},
		{"/x", "", "Bearer tok", "text/plain", "takokit-conformance", "application/json", "1"},
		{"/x", "", "", "application/json", "takokit-conformance", "", ""},
		{"/x", "", "Basic Zm9v", "application/json", "takokit-conformance", "", ""},
		{"/x", "", "", "application/json", "takokit-conformance", "", ""},
	}
	if len(*seen) != len(want) {
		t.Fatalf("the host saw %d requests; want %d", len(*seen), len(want))
	}
	for i, w := range want {
		if (*seen)[i] != w {
			t.Errorf("request %d reached the host as %+v; want %+v", i, (*seen)[i], w)
		}
	}
}

// An answer is read as it came: a redirect is not followed, an error envelope
// is decoded only from a non-2xx answer to a request other than HEAD (and kept
// only when valid), and a body over 8 MiB is a transport failure, which the
// running check's recorder notes.
func TestAnswersAreReadAsTheyCame(t *testing.T) {
	big := strings.Repeat("x", maxResponse+1)
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/envelope":
			w.WriteHeader(412)
			_, _ = w.Write([]byte(`{"error":{"code":"generation_conflict","message":"moved","requestId":"req_1","retryable":false}}`))
		case "/bad-envelope":
			w.WriteHeader(409)
			_, _ = w.Write([]byte(`{"error":{"code":"no_such_code","message":"x","requestId":"req_1","retryable":false}}`))
		case "/multiple":
			w.WriteHeader(300)
		case "/no-character":
			w.Header()["Content-Type"] = nil
			w.WriteHeader(500)
			_, _ = w.Write([]byte(strings.Repeat("\x80", 300))) // no byte starts a character
		case "/ok-empty":
			w.WriteHeader(200)
		case "/html":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(404)
			_, _ = w.Write([]byte("<!DOCTYPE HTML>\n<html>\n  <body>\n    <h1>Error response</h1>\n  </body>\n</html>\n"))
		case "/text":
			w.Header()["Content-Type"] = nil // no type declared, none sniffed
			w.WriteHeader(502)
			_, _ = w.Write([]byte("upstream   down"))
		case "/wide":
			w.WriteHeader(500)
			_, _ = w.Write([]byte("{" + strings.Repeat("é", 150)))
		case "/big":
			_, _ = w.Write([]byte(big))
		case "/limit":
			_, _ = w.Write([]byte(big[:maxResponse]))
		default:
			w.WriteHeader(404)
		}
	})
	ctx := context.Background()
	c := NewClient(srv.URL, "primary", "tok")
	get := func(method, target string) *Resp {
		t.Helper()
		r, err := c.Do(ctx, Req{Method: method, Target: target})
		if err != nil {
			t.Fatalf("%s %s: %v", method, target, err)
		}
		return r
	}
	if r := get("GET", "/redirect"); r.Status != 302 {
		t.Errorf("a redirect answered %d; want the 302 itself", r.Status)
	}
	if r := get("GET", "/envelope"); r.Code() != "generation_conflict" || r.Got() != "412 generation_conflict: moved" {
		t.Errorf("an error envelope read as %q (%q)", r.Code(), r.Got())
	}
	if r := get("GET", "/bad-envelope"); r.Err != nil || r.EnvErr == nil || r.Code() != "" || !strings.HasPrefix(r.Got(), "409 without a valid error envelope (") {
		t.Errorf("an envelope with an unknown code: Err %v, EnvErr %v, Got %q; want no envelope and why", r.Err, r.EnvErr, r.Got())
	}
	// what is no JSON at all is said as what it is, on one line
	for target, want := range map[string]string{
		"/html":         "404 with a text/html body, not a JSON error envelope: <!DOCTYPE HTML> <html> <body> <h1>Error response</h1> </body> </html>",
		"/text":         "502 with a body of no declared media type, not a JSON error envelope: upstream down",
		"/multiple":     "300 with an empty body, not a JSON error envelope",
		"/ok-empty":     "200 (empty body)", // a success is no error envelope to miss
		"/no-character": "500 with a body of no declared media type, not a JSON error envelope: …",
	} {
		if r := get("GET", target); r.Got() != want {
			t.Errorf("GET %s: Got %q; want %q", target, r.Got(), want)
		}
	}
	// a long body is cut at 200 bytes, never inside a character
	if r := get("GET", "/wide"); !strings.HasSuffix(r.Got(), "{"+strings.Repeat("é", 99)+"…") {
		t.Errorf("a body of 2-byte characters cut as %q", r.Got())
	}
	if r := get("GET", "/multiple"); r.EnvErr == nil {
		t.Error("a 300 answer was not read for an error envelope")
	}
	if r := get("HEAD", "/missing"); r.Status != 404 || r.Err != nil || r.EnvErr != nil {
		t.Errorf("a HEAD answered 404: Err %v, EnvErr %v; want no envelope read (a HEAD has no body)", r.Err, r.EnvErr)
	}
	if r := get("GET", "/limit"); len(r.Body) != maxResponse || r.Got() != "200 "+big[:200]+"…" {
		t.Errorf("an answer of exactly 8 MiB read as %d bytes", len(r.Body))
	}
	rec := &recorder{}
	_, err := c.recording(rec).Do(ctx, Req{Method: "GET", Target: "/big"})
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "exceeds 8 MiB") {
		t.Fatalf("an answer over 8 MiB: %v; want a transport failure naming the limit", err)
	}
	if x := rec.lastExchange(); x == nil || x.Request != "GET /big" || !strings.Contains(x.Error, "exceeds 8 MiB") {
		t.Errorf("the recorder noted %+v; want the dropped request and why", x)
	}
}

// Messages show a long query's path only and at most 200 characters of a body.
func TestMessagesShortenWhatTheyShow(t *testing.T) {
	long := "/r?" + strings.Repeat("q", 160)
	if got := shorten(long); got != "/r?…" {
		t.Errorf("a target of %d characters shortened to %q", len(long), got)
	}
	if short := "/r?" + strings.Repeat("q", 150); shorten(short) != short {
		t.Errorf("a target of %d characters was shortened", len(short))
	}
	if got := snippet([]byte(" " + strings.Repeat("b", 201) + " ")); got != strings.Repeat("b", 200)+"…" {
		t.Errorf("a 201-character body shown as %q", got)
	}
	if got := snippet([]byte(strings.Repeat("b", 200))); got != strings.Repeat("b", 200) {
		t.Errorf("a 200-character body shown as %q", got)
	}
	if got := snippet([]byte("  \n")); got != "(empty body)" {
		t.Errorf("an empty body shown as %q", got)
	}
}
