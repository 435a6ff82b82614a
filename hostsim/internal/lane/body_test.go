package lane_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

const maxBody = 8 << 20 // hostsim's JSON request limit (docs/protocol.md)

// padded is a prepare document grown with trailing spaces to exactly n bytes.
func (h *host) padded(n int) []byte {
	d := h.doc("padded", nil)
	return append(d, bytes.Repeat([]byte(" "), n-len(d))...)
}

// prepareBody sends b to prepare, announced (Content-Length) or chunked.
func (h *host) prepareBody(b []byte, chunked bool) *reply {
	h.t.Helper()
	var body io.Reader = bytes.NewReader(b)
	if chunked {
		body = io.MultiReader(bytes.NewReader(b))
	}
	req, err := http.NewRequest("POST", h.sim.URL+wire.DefaultLane.APIRoot+"/resources/prepare", body)
	if err != nil {
		h.t.Fatal(err)
	}
	if chunked {
		req.ContentLength = -1
	}
	return h.send(req, nil)
}

// A JSON request of exactly 8 MiB is read whole, one byte more is refused,
// whether its length is announced or it comes chunked; GET and HEAD bodies
// are not read at all.
func TestBodyLimit(t *testing.T) {
	h := newHost(t, "orders")
	for _, chunked := range []bool{false, true} {
		h.prepareBody(h.padded(maxBody), chunked).want(200)
		h.prepareBody(h.padded(maxBody+1), chunked).want(400).refused("invalid_argument", "exceeds hostsim's 8 MiB limit")
		h.prepareBody(h.doc("small", nil), chunked).want(200)
	}
	big := bytes.Repeat([]byte("x"), maxBody+1)
	h.do("GET", h.path("orders")+h.query(), nil, big).want(200)
	blob := wire.DefaultLane.APIRoot + "/artifacts/blobs/" + string(bytes.Repeat([]byte("0"), 64))
	h.do("HEAD", blob, nil, big).want(404)
}

// A body longer than its announced length is refused 400 as unreadable, not
// read cut short: net/http's server never hands the handler one, but an embedding
// that calls Host.Handler() in process (as the conformance self-test does) may.
// (A shorter one, which a client can send over a socket: TestShortBodyIsRefused.)
func TestBodyLongerThanItsLengthIsRefused(t *testing.T) {
	h := newHost(t, "")
	doc := h.doc("announced", nil)
	req := httptest.NewRequest("POST", wire.DefaultLane.APIRoot+"/resources/prepare", bytes.NewReader(doc))
	req.ContentLength = int64(len(doc)) - 1
	req.Header.Set("Authorization", "Bearer sim-primary")
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.sim.Host.Handler().ServeHTTP(rec, req)
	r := &reply{t: t, what: fmt.Sprintf("POST prepare, %d bytes announced as %d", len(doc), req.ContentLength), status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	r.want(400).refused("invalid_argument", "the request body could not be read: unexpected EOF")
}
