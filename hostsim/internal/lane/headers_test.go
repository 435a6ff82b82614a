package lane_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// An answer without a body carries no ETag and no Content-Type; one with a
// body carries both and its length.
func TestAnswerHeaders(t *testing.T) {
	h := newHost(t, "orders")
	r := h.do("GET", h.path("orders")+h.query(), nil, nil).want(200)
	if r.header.Get("ETag") == "" || r.header.Get("Content-Type") != wire.ContentTypeJSON || r.header.Get("Content-Length") != fmt.Sprint(len(r.body)) {
		t.Fatalf("GET answer headers %v", r.header)
	}
	r = h.do("DELETE", h.path("orders")+h.query(), map[string]string{"Takoform-Expected-Generation": "1", "Idempotency-Key": h.key()}, nil).want(204)
	for _, k := range []string{"Etag", "Content-Type"} {
		if v, ok := r.header[k]; ok {
			t.Errorf("the 204 answer carries %s %q; an answer without a body has none", k, v)
		}
	}
}

// A body shorter than its Content-Length is refused as unreadable, not
// decoded from what arrived; so is one announcing far more than the limit
// (hostsim reads at most 8 MiB + 1 of it, never allocating what it announces).
func TestShortBodyIsRefused(t *testing.T) {
	h := newHost(t, "")
	for _, announced := range []int64{100, 1 << 62} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(h.sim.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_, _ = fmt.Fprintf(conn, "POST %s/resources/prepare HTTP/1.1\r\nHost: lane\r\nAuthorization: Bearer sim-primary\r\n"+
			"Content-Length: %d\r\n\r\n{\"a\":", wire.DefaultLane.APIRoot, announced)
		_ = conn.(*net.TCPConn).CloseWrite()
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var env struct {
			Error struct{ Code, Message string }
		}
		_ = json.Unmarshal(b, &env)
		if resp.StatusCode != 400 || !strings.Contains(env.Error.Message, "could not be read") {
			t.Fatalf("Content-Length %d: HTTP %d %s, want 400 invalid_argument: the request body could not be read", announced, resp.StatusCode, b)
		}
	}
}
