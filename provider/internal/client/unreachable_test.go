package client

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// closedPort is a loopback origin nothing listens on: a port just released.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// silentHost is a loopback origin that accepts connections and never answers.
func silentHost(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(done)
				return
			}
			conns = append(conns, c) // held open, never read or answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return "http://" + l.Addr().String()
}

// TestUnreachableHostsAreNamedSo: connection refused, a name that does not resolve and a
// host that never answers are each "host unreachable at <origin>", with the reason; the
// path is named without its query.
func TestUnreachableHostsAreNamedSo(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, origin, reason string
		timeout              time.Duration
	}{
		{"connection refused", closedPort(t), "connection refused", 0},
		{"DNS failure", "https://takoform-test.invalid", "the host name takoform-test.invalid does not resolve (DNS)", 0},
		{"timeout", silentHost(t), "no answer in time (timeout)", 200 * time.Millisecond},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(Config{Endpoint: tc.origin, Token: "t", HTTP: &http.Client{Timeout: tc.timeout}})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			_, err = c.get(ctx, tc.origin+"/apis/x?space=dev")
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s; the failure must come quickly", time.Since(start))
			}
			u, ok := AsUnreachable(err)
			if !ok {
				t.Fatalf("%v is not classified unreachable", err)
			}
			if u.Origin != tc.origin || u.Method != "GET" || u.Path != "/apis/x" || !strings.Contains(u.Reason, tc.reason) {
				t.Errorf("unreachable = %+v, want origin %s, GET /apis/x and a reason with %q", u, tc.origin, tc.reason)
			}
			msg := err.Error()
			if !strings.Contains(msg, "host unreachable at "+tc.origin) || strings.Contains(msg, "refused with") || strings.Contains(msg, "space=dev") {
				t.Errorf("message %q must say host unreachable at %s, without the query", msg, tc.origin)
			}
		})
	}
}

// hangUp closes the request's connection without an answer: a host that accepted
// the request and then failed.
func hangUp(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
	}
}

// TestAnsweredFailuresAreNotUnreachable: a host that answers with an error, or accepts a
// connection and closes it without an answer, is not "unreachable".
func TestAnsweredFailuresAreNotUnreachable(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hangup" {
			hangUp(w)
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error":{"code":"unauthenticated","message":"no","requestId":"req_1","retryable":false}}`))
	}))
	defer hs.Close()
	srv := hs.URL
	c, err := New(Config{Endpoint: srv, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/refused", "/hangup"} {
		_, err := c.get(context.Background(), srv+p)
		if err == nil {
			t.Fatalf("%s: want an error", p)
		}
		if u, ok := AsUnreachable(err); ok {
			t.Errorf("%s: %v classified unreachable (%+v)", p, err, u)
		}
		if strings.Contains(err.Error(), "unreachable") {
			t.Errorf("%s: %q says unreachable", p, err)
		}
	}
}

// TestEveryCallStopsWhenTheHostCannotBeDiscovered: every call that needs the host's
// discovery document sends nothing when discovery fails, and returns discovery's error,
// the origin it could not reach named (never a nil error with a nil answer).
func TestEveryCallStopsWhenTheHostCannotBeDiscovered(t *testing.T) {
	t.Parallel()
	origin := closedPort(t)
	c, err := New(Config{Endpoint: origin, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ref := wire.FormRef{APIVersion: "edge.takoform.com/v1alpha1", Kind: "KVNamespace", DefinitionVersion: "0.1.0"}
	want := Expect{Ref: ref, Name: "cache", Space: "dev"}
	tx := &TxRequest{OperationID: "formtx_0", Name: "orders", Space: "dev", Body: []byte(`{}`)}
	for name, call := range map[string]func() error{
		"Probe":              func() error { return c.Probe(ctx, ref, "dev", "") },
		"Apply":              func() error { _, err := c.Apply(ctx, ApplyInput{Want: want, Body: []byte(`{}`), Key: "k"}); return err },
		"Get":                func() error { _, err := c.Get(ctx, want); return err },
		"Delete":             func() error { _, err := c.Delete(ctx, want, "1", "k"); return err },
		"GetOperation":       func() error { _, _, err := c.GetOperation(ctx, "op_1"); return err },
		"StartUpload":        func() error { _, err := c.StartUpload(ctx, map[string]any{}); return err },
		"Prepare":            func() error { _, err := c.Prepare(ctx, []byte(`{"spec":{}}`), want, ""); return err },
		"TransitionPost":     func() error { _, err := c.TransitionPost(ctx, tx); return err },
		"TransitionReadback": func() error { _, err := c.TransitionReadback(ctx, tx); return err },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), "host unreachable at "+origin) {
			t.Errorf("%s: %v; want discovery's unreachable error", name, err)
		}
	}
}
