package scripts

import (
	"net/http"
	"net/http/httputil"
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
	prefixes := args[1:]
	for _, pre := range prefixes {
		if !strings.HasPrefix(pre, "/") {
			return usageError("a PATH_PREFIX starts with /: " + pre)
		}
	}
	_, err := frontSim(ts, args[0], func(fwd *httputil.ReverseProxy) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for _, pre := range prefixes {
				if strings.HasPrefix(r.URL.Path, pre) {
					http.NotFound(w, r) // "404 page not found", text/plain
					return
				}
			}
			fwd.ServeHTTP(w, r)
		})
	})
	return err
}
