package takoform

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
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// reply is one answer of the transition host: status 0 drops the connection after a
// partial answer, which the client reads as a transport failure.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// txHook decides the answer to the n-th (1-based) request of method to a Form
// transition route (the readback GET or the POST); fwd sends the request to hostsim
// (at most once) and returns hostsim's answer. A hook that does not call fwd keeps
// the request from ever reaching hostsim.
type txHook func(method string, n int, fwd func() reply) reply

// transitionHost puts a host in front of hostsim and configures the provider against
// it: Form transition requests go through hook (nil: forwarded unchanged), every other
// request is forwarded, with hostsim's origin replaced by the proxy's. It returns a
// function that counts the transition requests per method seen so far.
func transitionHost(t *testing.T, h *harness, hook txHook) func(method string) int {
	t.Helper()
	return transitionHostWith(t, h, hook, nil)
}

// otherHook may answer a request to any other route itself (ok), calling fwd (at most
// once) to send it to hostsim first; else it is forwarded.
type otherHook func(r *http.Request, fwd func() reply) (rep reply, ok bool)

// transitionHostWith is transitionHost whose other requests go through other first.
func transitionHostWith(t *testing.T, h *harness, hook txHook, other otherHook) func(method string) int {
	t.Helper()
	target, err := url.Parse(h.sim.URL)
	if err != nil {
		t.Fatal(err)
	}
	var self string
	rewriteOrigin := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(h.sim.URL), []byte(self)) }
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		body = rewriteOrigin(body)
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		fwd := func() reply {
			req, err := http.NewRequest(r.Method, h.sim.URL+r.URL.RequestURI(), bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return reply{}
			}
			req.Header = r.Header.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return reply{} // hostsim dropped it (a crash fault): so does the proxy
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return reply{status: resp.StatusCode, header: resp.Header, body: rewriteOrigin(b)}
		}
		if !strings.Contains(r.URL.Path, "/form-transitions") {
			if other != nil {
				if rep, ok := other(r, fwd); ok {
					answer(t, w, rep)
					return
				}
			}
			rp.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		seen[r.Method]++
		n := seen[r.Method]
		mu.Unlock()
		var rep reply
		if hook == nil {
			rep = fwd()
		} else {
			rep = hook(r.Method, n, fwd)
		}
		answer(t, w, rep)
	}))
	t.Cleanup(srv.Close)
	self = srv.URL
	mustNoError(t, "configure against the transition host", h.configure(map[string]string{"endpoint": srv.URL, "token": "sim-primary", "space": "dev"}))
	return func(method string) int {
		mu.Lock()
		defer mu.Unlock()
		return seen[method]
	}
}

// answer writes rep (status 0: a connection broken mid-answer).
func answer(t *testing.T, w http.ResponseWriter, rep reply) {
	if rep.status == 0 {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
		buf.Flush()
		conn.Close()
		return
	}
	for k, v := range rep.header {
		if k != "Content-Length" {
			w.Header()[k] = v
		}
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(rep.body)))
	w.WriteHeader(rep.status)
	w.Write(rep.body)
}

// editJSON returns body with edit applied to its decoded object, re-encoded.
func editJSON(t *testing.T, body []byte, edit func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("not a JSON object: %s", body)
	}
	edit(doc)
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dropped is the answer of a host whose connection breaks mid-answer.
var dropped = reply{}

// applyTransition plans and applies the marker on the 0.1.0 queue st.
func applyTransition(t *testing.T, h *harness, cfg, st values) (values, []*tfprotov6.Diagnostic) {
	t.Helper()
	pr := h.plan(queueType, cfg, st)
	mustNoError(t, "plan", pr.diags)
	return h.apply(queueType, cfg, st, pr.planned)
}
