// Package record keeps the HTTP exchanges a client has with a host (Recorder), for
// a test to check afterwards. It imports nothing of hostsim, so a test that only
// records (the scenarios' OpenAPI commands) is not compiled again when hostsim
// changes; hostsimtest names the same types (docs/decisions.md#test-time).
package record

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// Exchange is one request and the answer a host gave, kept whole (both bodies
// readable again) so a test can check it afterwards, e.g. against the host's
// OpenAPI description (docs/protocol.md#openapi).
type Exchange struct {
	Req  *http.Request
	Resp *http.Response
	Body []byte // the answer's body, also readable from Resp.Body
}

// Recorder is an http.RoundTripper that forwards every request with
// http.DefaultTransport and keeps each exchange. It is safe for concurrent use.
type Recorder struct {
	mu   sync.Mutex
	list []Exchange
}

// RoundTrip forwards req and keeps the exchange.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var reqBody []byte
	if req.Body != nil {
		reqBody, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(reqBody))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	kept := req.Clone(req.Context())
	kept.Body = io.NopCloser(bytes.NewReader(reqBody))
	r.mu.Lock()
	r.list = append(r.list, Exchange{kept, resp, body})
	r.mu.Unlock()
	return resp, nil
}

// Exchanges is every exchange kept so far, in the order the answers came.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Exchange(nil), r.list...)
}
