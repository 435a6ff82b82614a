package takoform

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/provider/internal/client"
)

// TestHostRequestsAreLoggedWithoutSecrets: a plan, create and refresh, then a plan with
// a token the host rejects, each write one Debug line per host request with method,
// path, status, request id and duration — and the log holds no token, no Authorization
// header, no request body and no query.
func TestHostRequestsAreLoggedWithoutSecrets(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	var buf bytes.Buffer
	h.ctx = tflogtest.RootLogger(context.Background(), &buf)
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(36017)}
	st := h.create(queueType, cfg)
	_, d := h.read(queueType, st)
	mustNoError(t, "read", d)
	mustNoError(t, "configure a rejected token", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "rejected-zq81", "space": "dev"}))
	h.plan(queueType, values{aName: s("other"), "message_retention_seconds": i64(60)}, nil)

	raw := buf.String()
	lines, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatalf("log is not JSON lines: %v", err)
	}
	requests, _ := counters(t, h)
	var ours []map[string]any
	for _, l := range lines {
		if l["@message"] == client.LogMessage {
			ours = append(ours, l)
		}
	}
	if int64(len(ours)) != requests {
		t.Errorf("%d request lines for %d requests the host counted:\n%s", len(ours), requests, raw)
	}
	seen := map[string]bool{}
	for _, l := range ours {
		method, _ := l["method"].(string)
		path, _ := l["path"].(string)
		status, _ := l["status"].(float64)
		_, timed := l["duration_ms"].(float64)
		id, hasID := l["request_id"].(string)
		if l["@level"] != "debug" || method == "" || !strings.HasPrefix(path, "/") || status == 0 || !timed || !hasID {
			t.Errorf("incomplete line %v", l)
		}
		switch {
		case method == "GET" && strings.HasPrefix(path, "/.well-known/") && status == 200:
			seen["discovery"] = true
		case method == "GET" && strings.Contains(path, "/support/forms/") && status == 200:
			seen["support read"] = true
		case method == "POST" && strings.HasSuffix(path, "/prepare"):
			seen["prepare"] = true
		case method == "PUT" && strings.HasSuffix(path, "/orders") && status < 300:
			seen["create"] = true
		case status == 401 && strings.HasPrefix(id, "req_"):
			seen["rejected with its request id"] = true
		}
	}
	for _, w := range []string{"discovery", "support read", "prepare", "create", "rejected with its request id"} {
		if !seen[w] {
			t.Errorf("no line for the %s:\n%s", w, raw)
		}
	}
	lower := strings.ToLower(raw)
	for _, secret := range []string{"sim-primary", "rejected-zq81", "bearer", "authorization", "36017", "space=", "?"} {
		if strings.Contains(lower, secret) {
			t.Errorf("the log carries %q:\n%s", secret, raw)
		}
	}
}
