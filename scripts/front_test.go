package scripts

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"

	"github.com/rogpeppe/go-internal/testscript"
)

// frontSim serves, on a loopback port in front of the scenario's hostsim NAME, the
// handler made from a reverse proxy to NAME (openapi-proxy records through it,
// bare-404 answers some paths itself); NAME_URL, and what tofu-env points the provider
// at, become that server's origin. The server closes when the script ends.
func frontSim(ts *testscript.TestScript, name string, handler func(fwd *httputil.ReverseProxy) http.Handler) (*simProc, error) {
	p, err := lookupSim(ts, name)
	if err != nil {
		return nil, err
	}
	target, err := url.Parse(p.url)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: handler(httputil.NewSingleHostReverseProxy(target))}
	go func() { _ = srv.Serve(ln) }()
	ts.Defer(func() { _ = srv.Close() })
	p.url = "http://" + ln.Addr().String()
	ts.Setenv(name+"_URL", p.url)
	return p, nil
}
