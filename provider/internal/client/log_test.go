package client

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

const logToken = "tok-3f9a1c-secret"

// logLines runs fn with a provider root logger writing to a buffer and returns the
// decoded lines (tflogtest: JSON, TRACE level, no timestamps).
func logLines(t *testing.T, fn func(ctx context.Context)) ([]map[string]any, string) {
	t.Helper()
	var buf bytes.Buffer
	fn(tflogtest.RootLogger(context.Background(), &buf))
	raw := buf.String()
	lines, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatalf("log output is not JSON lines: %v\n%s", err, raw)
	}
	return lines, raw
}

func TestEveryRequestIsLoggedAtDebugWithoutSecrets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/ok":
			w.Header().Set(HeaderRequestID, "req_header1")
			w.Write([]byte(`{}`))
		default:
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error":{"code":"unauthenticated","message":"who?","requestId":"req_envelope2","retryable":false}}`))
		}
	}))
	defer srv.Close()
	c, err := New(Config{Endpoint: srv.URL, Token: logToken})
	if err != nil {
		t.Fatal(err)
	}
	dead, err := New(Config{Endpoint: closedPort(t), Token: logToken})
	if err != nil {
		t.Fatal(err)
	}
	lines, raw := logLines(t, func(ctx context.Context) {
		c.do(ctx, Request{Method: http.MethodGet, URL: srv.URL + "/ok?space=dev"})
		c.do(ctx, Request{Method: http.MethodPut, URL: srv.URL + "/refused", Body: []byte(`{"spec":{}}`)})
		// a path that carries the token: the masking must still hide it
		c.do(ctx, Request{Method: http.MethodGet, URL: srv.URL + "/names/" + logToken})
		dead.do(ctx, Request{Method: http.MethodDelete, URL: dead.Origin() + "/gone"})
	})
	if len(lines) != 4 {
		t.Fatalf("want one line per request, got %d:\n%s", len(lines), raw)
	}
	want := []struct {
		method, path string
		status       float64
		reqID        string
	}{
		{"GET", "/ok", 200, "req_header1"},
		{"PUT", "/refused", 401, "req_envelope2"},
		{"GET", "/names/***", 401, "req_envelope2"},
		{"DELETE", "/gone", 0, ""},
	}
	for i, w := range want {
		l := lines[i]
		if l["@level"] != "debug" || l["@message"] != LogMessage || l["method"] != w.method || l["path"] != w.path ||
			l["status"] != w.status || l["request_id"] != w.reqID {
			t.Errorf("line %d = %v, want %+v at debug", i, l, w)
		}
		if _, ok := l["duration_ms"].(float64); !ok {
			t.Errorf("line %d has no duration_ms: %v", i, l)
		}
	}
	if e, _ := lines[3]["error"].(string); !strings.Contains(e, "host unreachable at "+dead.Origin()) {
		t.Errorf("the failed request's line says %q, want host unreachable", e)
	}
	for _, secret := range []string{logToken, "Bearer", "Authorization", "space=dev", `"spec"`} {
		if strings.Contains(raw, secret) {
			t.Errorf("the log carries %q:\n%s", secret, raw)
		}
	}
}

// TestNoLogWithoutALogger: a context without a provider logger (a unit test, a tool) still works.
func TestNoLogWithoutALogger(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) }))
	defer srv.Close()
	c, _ := New(Config{Endpoint: srv.URL, Token: logToken})
	// no root logger in the context: the request still works and nothing panics
	if _, err := c.do(context.Background(), Request{Method: http.MethodGet, URL: srv.URL + "/ok"}); err != nil {
		t.Fatal(err)
	}
}

// TestALostAnswerIsLoggedWithoutTheURL: a host that accepted the connection and
// closed it without answering is not unreachable; the line says no complete
// answer came, and names neither the URL nor its query (net/http's error would
// quote both).
func TestALostAnswerIsLoggedWithoutTheURL(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hangUp(w) }))
	defer srv.Close()
	c, err := New(Config{Endpoint: srv.URL, Token: logToken})
	if err != nil {
		t.Fatal(err)
	}
	lines, raw := logLines(t, func(ctx context.Context) {
		if _, err := c.do(ctx, Request{Method: http.MethodGet, URL: srv.URL + "/cut?space=dev"}); err == nil {
			t.Error("a connection closed without an answer gave no error")
		}
	})
	if len(lines) != 1 {
		t.Fatalf("want one line, got %d:\n%s", len(lines), raw)
	}
	e, _ := lines[0]["error"].(string)
	if !strings.HasPrefix(e, "no complete answer from the host: ") || strings.Contains(e, "unreachable") ||
		lines[0]["path"] != "/cut" || lines[0]["status"] != float64(0) {
		t.Errorf("line = %v, want no complete answer for /cut", lines[0])
	}
	for _, leak := range []string{"space=dev", srv.URL, logToken} {
		if strings.Contains(raw, leak) {
			t.Errorf("the log carries %q:\n%s", leak, raw)
		}
	}
}
