package selftest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// rewriteOperations is a proxy in front of hostsim that applies edit to every
// Operation document it forwards (a 202's {"operation": …} and GET /operations/{id}).
func rewriteOperations(t *testing.T, origin string, edit func(op map[string]any)) string {
	return rewriteJSON(t, origin, func(_ *http.Request, doc map[string]any) bool {
		if op, ok := doc["operation"].(map[string]any); ok && op["kind"] == "Operation" {
			edit(op)
			return true
		}
		if doc["kind"] == "Operation" {
			edit(doc)
			return true
		}
		return false
	})
}

// rewriteJSON is a proxy in front of hostsim that lets edit change the JSON object
// of any answer (edit reports whether it changed it); the ETag is left as it was.
func rewriteJSON(t *testing.T, origin string, edit func(req *http.Request, doc map[string]any) bool) string {
	t.Helper()
	proxy := hostProxy(t, origin)
	proxy.ModifyResponse = func(res *http.Response) error {
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			return nil
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		var doc map[string]any
		if json.Unmarshal(b, &doc) == nil && edit(res.Request, doc) {
			b, _ = json.Marshal(doc)
		}
		res.Body = io.NopCloser(bytes.NewReader(b))
		res.ContentLength = int64(len(b))
		res.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	return serveLoopback(t, proxy)
}

// countedRewrite is rewriteJSON that also counts the answers edit changed, for
// a test to prove its edit happened.
func countedRewrite(t *testing.T, origin string, edit func(req *http.Request, doc map[string]any) bool) (string, *atomic.Int32) {
	t.Helper()
	var edited atomic.Int32 // answers go through the proxy on the server's goroutines
	return rewriteJSON(t, origin, func(req *http.Request, doc map[string]any) bool {
		if !edit(req, doc) {
			return false
		}
		edited.Add(1)
		return true
	}), &edited
}

// hostProxy is a reverse proxy to the host at origin, for a test to edit what
// goes through it (its Director, its ModifyResponse) before serveLoopback.
func hostProxy(t *testing.T, origin string) *httputil.ReverseProxy {
	t.Helper()
	u, err := url.Parse(origin)
	if err != nil {
		t.Fatal(err)
	}
	return httputil.NewSingleHostReverseProxy(u)
}

// serveLoopback serves h on a loopback port until the test ends and returns
// its URL.
func serveLoopback(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestAsyncFlowTargetIsOptional: the lane makes an Operation's target optional, so a
// host that omits it passes async-operation-flow; one whose target.uid names another
// incarnation fails it.
func TestAsyncFlowTargetIsOptional(t *testing.T) {
	t.Parallel() // its own hostsim processes
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, "full")
	run := func(endpoint string) conformance.Result {
		cfg := conformance.Config{Endpoint: endpoint, Catalog: cat, Space: "target", Only: []string{"async-operation-flow"}}
		tokens(&cfg)
		rep, err := conformance.Run(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Checks {
			if r.ID == "async-operation-flow" {
				return r
			}
		}
		t.Fatal("async-operation-flow did not run")
		return conformance.Result{}
	}
	sawTarget := false
	omitted := rewriteOperations(t, sim.URL, func(op map[string]any) {
		if _, ok := op["target"]; ok {
			sawTarget = true
		}
		delete(op, "target")
	})
	if r := run(omitted); r.Status != conformance.StatusPass {
		t.Errorf("a host omitting the optional Operation target: %s, want pass", r.Line())
	}
	if !sawTarget {
		t.Error("hostsim sent no Operation target, so the omission proved nothing")
	}
	wrong := rewriteOperations(t, sim.URL, func(op map[string]any) {
		if tg, ok := op["target"].(map[string]any); ok && tg["uid"] != nil {
			tg["uid"] = "some-other-incarnation"
		}
	})
	if r := run(wrong); r.Status != conformance.StatusFail || !strings.Contains(r.Message, `target.uid "some-other-incarnation"`) {
		t.Errorf("a host naming another uid in target: %s, want fail naming target.uid", r.Line())
	}
}
