package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

const testDigest = "sha256:" + "ab" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"

// artifactHost is a lane host with only discovery, the artifact routes and one
// operation: each route answers what the test set (status and body; status 0
// closes the connection without an answer), and the
// host keeps the requests (method, path, Idempotency-Key) it saw.
type artifactHost struct {
	mu      sync.Mutex
	answers map[string]routeAnswer
	seen    []string
	srv     *httptest.Server
}

// routeAnswer is what a route of an artifactHost answers.
type routeAnswer struct {
	status int
	body   string
}

func newArtifactHost(t *testing.T) *artifactHost {
	t.Helper()
	h := &artifactHost{answers: map[string]routeAnswer{}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == wire.DefaultLane.DiscoveryPath {
			w.Write([]byte(strings.ReplaceAll(goodDiscovery, "ORIGIN", h.srv.URL)))
			return
		}
		route := strings.TrimPrefix(r.URL.Path, wire.DefaultLane.APIRoot)
		h.mu.Lock()
		h.seen = append(h.seen, r.Method+" "+route+" "+r.Header.Get("Idempotency-Key"))
		a, ok := h.answers[r.Method+" "+route]
		h.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusTeapot)
			return
		}
		if a.status == 0 {
			hangUp(w)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		w.Write([]byte(a.body))
	}))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *artifactHost) answer(route string, status int, body string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.answers[route] = routeAnswer{status, body}
}

func (h *artifactHost) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

func (h *artifactHost) client(t *testing.T) *Client {
	t.Helper()
	c, err := New(Config{Endpoint: h.srv.URL, Token: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	c.backoff = func(int) time.Duration { return time.Millisecond }
	return c
}

// An upload start is one POST under a fresh random key, never sent twice; its
// answer must be 201 or 200 with a well-formed uploadId and a missingBlobs list.
func TestStartUploadAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		status int
		body   string
		refuse string // "" when accepted
	}{
		{201, `{"uploadId":"up_1","missingBlobs":["` + testDigest + `"]}`, ""},
		{200, `{"uploadId":"up_1","missingBlobs":[]}`, ""},
		{202, `{"uploadId":"up_1","missingBlobs":[]}`, "upload start must answer 201 or 200"},
		{201, `{"uploadId":"up_1"}`, "upload status lacks a valid uploadId or missingBlobs"},
		{201, `{"uploadId":"1","missingBlobs":[]}`, "upload status lacks a valid uploadId or missingBlobs"},
		{201, `{"uploadId":"up_1","missingBlobs":[],"extra":1}`, "upload status: "},
	} {
		h := newArtifactHost(t)
		h.answer("POST /artifacts/uploads", c.status, c.body)
		cl := h.client(t)
		st, err := cl.StartUpload(context.Background(), map[string]any{"kind": "bundle"})
		var pe *ProtocolError
		switch {
		case c.refuse == "" && (err != nil || st.UploadID != "up_1"):
			t.Errorf("%d %s: %v %+v", c.status, c.body, err, st)
		case c.refuse != "" && (!errors.As(err, &pe) || !strings.HasPrefix(pe.Reason, c.refuse)):
			t.Errorf("%d %s: %v, want a protocol error %q", c.status, c.body, err, c.refuse)
		}
	}
	// two starts, two keys; a lost answer is not sent again
	h := newArtifactHost(t)
	h.answer("POST /artifacts/uploads", 201, `{"uploadId":"up_1","missingBlobs":[]}`)
	cl := h.client(t)
	for range 2 {
		if _, err := cl.StartUpload(context.Background(), map[string]any{}); err != nil {
			t.Fatal(err)
		}
	}
	got := h.requests()
	if len(got) != 2 || !strings.HasPrefix(got[0], "POST /artifacts/uploads takoform-upload-") || len(got[0]) != len("POST /artifacts/uploads takoform-upload-")+32 || got[0] == got[1] {
		t.Errorf("two starts sent %q: want two POSTs, each with a key of its own", got)
	}
	h = newArtifactHost(t)
	h.answer("POST /artifacts/uploads", 0, "") // the connection closes without an answer
	if _, err := h.client(t).StartUpload(context.Background(), map[string]any{}); !IsTransport(err) || len(h.requests()) != 1 {
		t.Errorf("a lost upload start: %v after %q, want a transport failure after one request", err, h.requests())
	}
}

// A blob upload answers 201 (stored) or 204 (already held).
func TestPutBlobAnswers(t *testing.T) {
	t.Parallel()
	for status, ok := range map[int]bool{201: true, 204: true, 200: false} {
		h := newArtifactHost(t)
		h.answer("PUT /artifacts/uploads/up_1/blobs/"+testDigest, status, "")
		err := h.client(t).PutBlob(context.Background(), "up_1", testDigest, []byte("x"))
		if (err == nil) != ok {
			t.Errorf("blob upload answered %d: %v", status, err)
		}
	}
}

// A commit goes under the key of docs/provider-design.md#bundles (the digest of
// ["commit", uploadId, manifestDigest]) and answers the committed digest: at
// once (200, 201) or through its operation (202), whose error is the host's.
func TestCommitUploadAnswers(t *testing.T) {
	t.Parallel()
	op := func(done string) string {
		return `{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1"` + done + `}`
	}
	for _, c := range []struct {
		name        string
		status      int
		body, later string // later: the operation as read
		want        string // the digest, or the start of an error
	}{
		{"200", 200, `{"manifestDigest":"` + testDigest + `"}`, "", testDigest},
		{"201", 201, `{"manifestDigest":"` + testDigest + `"}`, "", testDigest},
		{"202, then the result", 202, `{"operation":` + op(`,"done":false`) + `}`, op(`,"done":true,"result":{"manifestDigest":"` + testDigest + `"}`), testDigest},
		{"202, then an error", 202, `{"operation":` + op(`,"done":false`) + `}`, op(`,"done":true,"error":{"code":"artifact_missing","message":"gone","retryable":false}`), "host refused with artifact_missing"},
		{"no digest", 200, `{"manifestDigest":"sha256:zz"}`, "", "protocol-invalid host response (HTTP 200): commit answer lacks a manifestDigest"},
		{"204", 204, ``, "", "protocol-invalid host response (HTTP 204): commit must answer 200, 201 or 202"},
	} {
		h := newArtifactHost(t)
		h.answer("POST /artifacts/uploads/up_1/commit", c.status, c.body)
		h.answer("GET /operations/op_1", 200, c.later)
		got, err := h.client(t).CommitUpload(context.Background(), "up_1", testDigest)
		if err != nil {
			got = err.Error()
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		want := "POST /artifacts/uploads/up_1/commit takoform-" + wire.RawDigest([]byte(`["commit","up_1","` + testDigest + `"]`))[len("sha256:"):]
		if reqs := h.requests(); len(reqs) == 0 || reqs[0] != want {
			t.Errorf("%s: the commit went as %q, want %q", c.name, reqs, want)
		}
	}
}
