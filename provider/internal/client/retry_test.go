package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// scripted is a host answering each request with the next of its answers (the
// last one once they run out) and counting the requests. An answer "cut" closes
// the connection without answering; any other is "STATUS CODE RETRYABLE
// [RETRY-AFTER]", or "200".
type scripted struct {
	mu       sync.Mutex
	answers  []string
	requests int
	srv      *httptest.Server
}

func newScripted(t *testing.T, answers ...string) *scripted {
	t.Helper()
	s := &scripted{answers: answers}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		a := s.answers[min(s.requests, len(s.answers)-1)]
		s.requests++
		s.mu.Unlock()
		if a == "cut" {
			hangUp(w)
			return
		}
		var status int
		var code, retry, after string
		fmt.Sscan(a, &status, &code, &retry, &after)
		if status == 200 {
			w.Write([]byte(`{}`))
			return
		}
		if after != "" {
			w.Header().Set("Retry-After", after)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"code":%q,"message":"scripted","requestId":"r-%d","retryable":%s}}`, code, s.requests, retry)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// client is a client of the scripted host whose backoff is recorded and waits 1 ms.
func (s *scripted) client(t *testing.T) (*Client, *[]int) {
	t.Helper()
	c, err := New(Config{Endpoint: s.srv.URL, Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	var waits []int
	c.backoff = func(attempt int) time.Duration { waits = append(waits, attempt); return time.Millisecond }
	return c, &waits
}

// The retry loop of docs/provider-design.md#lifecycle: a retryable host error is
// sent again, byte for byte, up to three attempts in all, after the backoff or the
// host's Retry-After; a refusal that is not retryable, or retryable:false, is
// returned at once; a transport failure is resent once when the caller allows it,
// and that resend is not one of the three attempts.
func TestRetryLoop(t *testing.T) {
	t.Parallel()
	busy := "503 backend_unavailable true"
	for _, c := range []struct {
		name     string
		answers  []string
		resend   bool
		requests int
		waits    []int  // the backoff's attempts asked
		code     string // "" for success
	}{
		{"retryable, then ok", []string{busy, busy, "200"}, false, 3, []int{0, 1}, ""},
		{"retryable three times: the third is returned", []string{busy}, false, 3, []int{0, 1}, "backend_unavailable"},
		{"each retryable code", []string{"409 resource_busy true", "429 rate_limited true", "504 deadline_exceeded true"}, false, 3, []int{0, 1}, "deadline_exceeded"},
		{"retryable:false is not retried", []string{"503 backend_unavailable false", "200"}, false, 1, nil, "backend_unavailable"},
		{"a code that is never retryable", []string{"412 generation_conflict false", "200"}, false, 1, nil, "generation_conflict"},
		{"Retry-After instead of the backoff", []string{"503 backend_unavailable true 0", "429 rate_limited true 1", "200"}, false, 3, []int{0}, ""},
		{"a transport failure, resent once", []string{"cut", "200"}, true, 2, nil, ""},
		{"a transport failure, resent once only", []string{"cut", "cut", "200"}, true, 2, nil, "transport"},
		{"a transport failure, no resend allowed", []string{"cut", "200"}, false, 1, nil, "transport"},
		{"the resend is not an attempt", []string{"cut", busy, busy, "200"}, true, 4, []int{0, 1}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := newScripted(t, c.answers...)
			cl, waits := s.client(t)
			_, err := cl.exchange(context.Background(), Request{Method: http.MethodPut, URL: s.srv.URL + "/r", Body: []byte(`{}`)}, c.resend)
			switch {
			case c.code == "" && err != nil:
				t.Errorf("failed: %v", err)
			case c.code == "transport" && !IsTransport(err):
				t.Errorf("got %v, want a transport failure", err)
			case c.code != "" && c.code != "transport" && !IsCode(err, wire.Code(c.code)):
				t.Errorf("got %v, want the host's %s", err, c.code)
			}
			if s.count() != c.requests || fmt.Sprint(*waits) != fmt.Sprint(c.waits) {
				t.Errorf("%d requests and backoff asked for attempts %v; want %d and %v", s.count(), *waits, c.requests, c.waits)
			}
		})
	}
}

// A wait the caller's deadline cannot hold is not waited: the refusal comes back
// at once, and a caller that gives up while the client waits gets the refusal it
// waited after, not a failure of a request it never made.
func TestRetryGivesUpWithinTheCallersTime(t *testing.T) {
	t.Parallel()
	s := newScripted(t, "429 rate_limited true 3600", "200")
	cl, _ := s.client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, err := cl.exchange(ctx, Request{Method: http.MethodGet, URL: s.srv.URL + "/r"}, true)
	if !IsCode(err, wire.CodeRateLimited) || s.count() != 1 {
		t.Fatalf("got %v after %d requests, want rate_limited after 1", err, s.count())
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the client waited %v for a Retry-After its deadline could not hold", d)
	}

	s = newScripted(t, "503 backend_unavailable true", "200")
	cl, _ = s.client(t)
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	cl.backoff = func(int) time.Duration { cancel(); return time.Hour }
	_, err = cl.exchange(ctx, Request{Method: http.MethodGet, URL: s.srv.URL + "/r"}, true)
	if !IsCode(err, wire.CodeBackendUnavailable) || s.count() != 1 {
		t.Fatalf("cancelled while waiting: got %v after %d requests, want the backend_unavailable it waited after, 1 request", err, s.count())
	}

	// a request the caller's own deadline cut is not resent
	hang := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-hang }))
	defer slow.Close()
	defer close(hang)
	var n atomic.Int32
	slow.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateActive {
			n.Add(1)
		}
	}
	cl, err = New(Config{Endpoint: slow.URL, Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := cl.exchange(ctx, Request{Method: http.MethodGet, URL: slow.URL + "/r"}, true); !IsTransport(err) {
		t.Fatalf("got %v, want a transport failure", err)
	}
	if n.Load() != 1 {
		t.Fatalf("%d requests: a request cut by the caller's deadline was resent", n.Load())
	}
}

// jitterBackoff is full jitter: anywhere from 0 to 250 ms doubled per attempt,
// never over 15 s, a shift past the width of a duration included.
func TestJitterBackoffStaysWithinItsBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		attempt int
		max     time.Duration
	}{{0, 250 * time.Millisecond}, {2, time.Second}, {10, backoffCap}, {63, backoffCap}, {64, backoffCap}, {200, backoffCap}} {
		var most time.Duration
		seen := map[time.Duration]bool{}
		for range 200 {
			d := jitterBackoff(c.attempt)
			if d < 0 || d > c.max {
				t.Fatalf("jitterBackoff(%d) = %v, outside [0, %v]", c.attempt, d, c.max)
			}
			most = max(most, d)
			seen[d] = true
		}
		if len(seen) < 100 || most < c.max/2 {
			t.Errorf("jitterBackoff(%d): %d distinct values, the largest %v, of 200: not spread over [0, %v]", c.attempt, len(seen), most, c.max)
		}
	}
}

// What each error says and which answers count as what.
func TestErrorTextsAndClasses(t *testing.T) {
	t.Parallel()
	if got := (&ProtocolError{Reason: "no discovery"}).Error(); got != "protocol-invalid host response: no discovery" {
		t.Errorf("a protocol error without a status: %q", got)
	}
	if got := (&ProtocolError{Status: 502, Reason: "html"}).Error(); got != "protocol-invalid host response (HTTP 502): html" {
		t.Errorf("a protocol error with a status: %q", got)
	}
	s := newScripted(t, "cut")
	cl, _ := s.client(t)
	_, err := cl.exchange(context.Background(), Request{Method: http.MethodGet, URL: s.srv.URL + "/cut?x=1"}, false)
	if want := "GET " + s.srv.URL + "/cut?x=1: no complete answer from the host: EOF"; err == nil || err.Error() != want {
		t.Errorf("a lost answer says %v, want %q (the URL once, not net/http's quote of it)", err, want)
	}
	for _, c := range []struct {
		status       int
		body         string
		notFound     bool
		code         wire.Code
		protocolText string
	}{
		{404, `{"error":{"code":"resource_not_found","message":"m","requestId":"r","retryable":false}}`, true, wire.CodeResourceNotFound, ""},
		{404, `{"error":{"code":"form_unknown","message":"m","requestId":"r","retryable":false}}`, false, wire.CodeFormUnknown, ""},
		{500, ``, false, "", "protocol-invalid host response (HTTP 500): server error without an error envelope"},
		{404, ``, false, "", "protocol-invalid host response (HTTP 404): the answer has an empty body, not a JSON error envelope"},
		{502, `<html>bad gateway</html>`, false, "", "protocol-invalid host response (HTTP 502): "}, // says why the body is no envelope
		{200, "{\"ok\"", false, "", "protocol-invalid host response (HTTP 200): error envelope is malformed"},
	} {
		err := refusal(&Response{Status: c.status, Body: []byte(c.body), Header: http.Header{}})
		if IsNotFound(err) != c.notFound {
			t.Errorf("%d %s: IsNotFound %v", c.status, c.body, !c.notFound)
		}
		if c.code != "" && (!IsCode(err, c.code) || IsCode(err, wire.CodeInternalError)) {
			t.Errorf("%d %s: IsCode says %v", c.status, c.body, err)
		}
		var pe *ProtocolError
		if c.protocolText != "" && (!errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.protocolText) ||
			(len(c.body) > 0 && strings.Contains(err.Error(), "server error"))) {
			t.Errorf("%d %q: %v, want %q", c.status, c.body, err, c.protocolText)
		}
	}
}

// TestAnAnswerThatIsNoJSONIsSaidAsWhatItIs: a plain web server's 404 page (an
// endpoint that is no Takoform host) or a proxy's text is said by its media type,
// on one line, with the question to ask; before, it was the JSON decoder's
// "unexpected character '<'".
func TestAnAnswerThatIsNoJSONIsSaidAsWhatItIs(t *testing.T) {
	t.Parallel()
	html := http.Header{"Content-Type": {"text/html; charset=utf-8"}}
	for _, c := range []struct {
		status int
		header http.Header
		body   string
		want   string
	}{
		{404, html, "<!DOCTYPE HTML>\n<html>\n  <body>Not   found</body>\n</html>\n",
			"protocol-invalid host response (HTTP 404): the answer is a text/html body, not a JSON error envelope (is the endpoint a Takoform host, or is a proxy answering before it?): <!DOCTYPE HTML> <html> <body>Not found</body> </html>"},
		{502, http.Header{}, "bad gateway",
			"protocol-invalid host response (HTTP 502): the answer is a body of no declared media type, not a JSON error envelope (is the endpoint a Takoform host, or is a proxy answering before it?): bad gateway"},
		{404, html, strings.Repeat("x", 120), // exactly as long as shown: nothing cut
			"protocol-invalid host response (HTTP 404): the answer is a text/html body, not a JSON error envelope (is the endpoint a Takoform host, or is a proxy answering before it?): " + strings.Repeat("x", 120)},
		{404, html, strings.Repeat("\x80", 130), // no character starts anywhere: the cut finds none, and shows none
			"protocol-invalid host response (HTTP 404): the answer is a text/html body, not a JSON error envelope (is the endpoint a Takoform host, or is a proxy answering before it?): …"},
		{503, html, "<p>" + strings.Repeat("é", 100),
			"protocol-invalid host response (HTTP 503): the answer is a text/html body, not a JSON error envelope (is the endpoint a Takoform host, or is a proxy answering before it?): <p>" + strings.Repeat("é", 58) + "…"},
	} {
		err := refusal(&Response{Status: c.status, Body: []byte(c.body), Header: c.header})
		if err == nil || err.Error() != c.want {
			t.Errorf("%d %q:\n got %v\nwant %s", c.status, c.body, err, c.want)
		}
	}
}

// Retry-After as delta-seconds (capped at an hour) or an HTTP-date (a past one
// is no wait); anything else, a negative number included, is ignored.
func TestRetryAfterBounds(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]time.Duration{
		"":     0,
		"0":    0,
		"7":    7 * time.Second,
		"-5":   0,
		"3600": time.Hour, "99999": time.Hour,
		time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat): 0,
		"soon": 0,
	} {
		if got := parseRetryAfter(v); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", v, got, want)
		}
	}
	if d := parseRetryAfter(time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)); d <= 0 || d > 3*time.Second {
		t.Errorf("an HTTP-date 3 s ahead: %v", d)
	}
}
