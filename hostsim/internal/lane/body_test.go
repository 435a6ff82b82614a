package lane_test

import (
	"bytes"
	"io"
	"net/http"
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
