package scripts

import (
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// A web server in front of a scenario's host that routes only some of its paths: the
// rest get the bare 404 such a server answers (text, no error envelope). A provider
// must tell that from a host that answers its lane's paths (docs/protocol.md, Mismatch).

// cmdBare404 puts a loopback proxy in front of NAME that answers every request whose
// path starts with one of PREFIXES with a bare 404 and forwards the rest; NAME_URL, and
// what tofu-env points the provider at, become the proxy's origin.
func cmdBare404(ts *testscript.TestScript, args []string) error {
	if len(args) < 2 {
		return usageError("need NAME and at least one PATH_PREFIX")
	}
	p, err := lookupSim(ts, args[0])
	if err != nil {
		return err
	}
	target, err := url.Parse(p.url)
	if err != nil {
		return err
	}
	prefixes := args[1:]
	for _, pre := range prefixes {
		if !strings.HasPrefix(pre, "/") {
			return usageError("a PATH_PREFIX starts with /: " + pre)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, pre := range prefixes {
			if strings.HasPrefix(r.URL.Path, pre) {
				http.NotFound(w, r) // "404 page not found", text/plain
				return
			}
		}
		rp.ServeHTTP(w, r)
	})}
	go func() { _ = srv.Serve(ln) }()
	ts.Defer(func() { _ = srv.Close() })
	p.url = "http://" + ln.Addr().String()
	ts.Setenv(args[0]+"_URL", p.url)
	return nil
}
