package selftest

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
)

// inProcessHandlers are the handlers of the in-process hosts, by the host:port
// of their loopback server (startInProcess).
var inProcessHandlers sync.Map

// direct carries a sweep's request to an in-process host's handler without its
// socket, and any other over HTTP. The sweeps run each check again once per
// request it makes, thousands of runs against one in-process host, and what
// they measure is the runner; the loopback hop (two goroutines, system calls
// and HTTP parsing on each side) was a quarter of their CPU
// (docs/decisions.md, "The sweeps skip the socket"). The handler gets the
// request as a server would: its path, query, host, headers and body, from
// 127.0.0.1. What a socket adds and direct does not (a Date header, a
// connection to reuse or lose) no check's verdict reads: each sweep's unaltered
// run goes over HTTP too, and a check that ends otherwise fails it (sweep).
func direct(r *http.Request) (*http.Response, error) {
	h, ok := inProcessHandlers.Load(r.URL.Host)
	if !ok {
		return http.DefaultTransport.RoundTrip(r)
	}
	sr := r.Clone(r.Context())
	sr.URL = &url.URL{Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery}
	sr.RequestURI = r.URL.RequestURI()
	sr.Host = r.URL.Host
	sr.RemoteAddr = "127.0.0.1:1"
	if sr.Body == nil {
		sr.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	h.(http.Handler).ServeHTTP(rec, sr)
	res := rec.Result()
	res.Request = r
	return res, nil
}
