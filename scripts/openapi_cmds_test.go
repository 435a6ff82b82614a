package scripts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/takokit/takokit/hostsim/hostsimtest/openapicheck"
	"github.com/takokit/takokit/hostsim/hostsimtest/record"
)

// A recording proxy in front of a scenario's host, so that every answer the host gives
// OpenTofu in that scenario is checked against the OpenAPI document the same host
// serves (docs/protocol.md#openapi).

// openAPIProxy is one recording reverse proxy on loopback.
type openAPIProxy struct {
	record.Recorder // forwards and keeps every exchange
	admin           string
}

var (
	proxiesMu sync.Mutex
	proxies   = map[*testscript.TestScript]map[string]*openAPIProxy{}
)

// cmdOpenAPIProxy puts a recording proxy in front of NAME: NAME_URL, and what tofu-env
// points the provider at, become the proxy's origin.
func cmdOpenAPIProxy(ts *testscript.TestScript, args []string) error {
	if len(args) != 1 {
		return usageError("need NAME")
	}
	px := &openAPIProxy{}
	p, err := frontSim(ts, args[0], func(fwd *httputil.ReverseProxy) http.Handler {
		fwd.Transport = px
		return fwd
	})
	if err != nil {
		return err
	}
	px.admin = p.admin
	proxiesMu.Lock()
	if proxies[ts] == nil {
		proxies[ts] = map[string]*openAPIProxy{}
	}
	proxies[ts][args[0]] = px
	proxiesMu.Unlock()
	return nil
}

// cmdOpenAPIValidate checks every answer recorded through NAME's proxy against the
// OpenAPI document NAME serves, and that there were at least MIN of them.
func cmdOpenAPIValidate(ts *testscript.TestScript, args []string) error {
	if len(args) != 2 {
		return usageError("need NAME MIN")
	}
	proxiesMu.Lock()
	px := proxies[ts][args[0]]
	proxiesMu.Unlock()
	if px == nil {
		return fmt.Errorf("no openapi-proxy in front of %s: put one there before the traffic to check", args[0])
	}
	var min int
	if _, err := fmt.Sscan(args[1], &min); err != nil {
		return usageError("MIN is a count")
	}
	resp, err := http.Get(px.admin + "/openapi.json")
	if err != nil {
		return err
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	v, err := openapicheck.Read(raw)
	if err != nil {
		return fmt.Errorf("the host's OpenAPI document (%s/openapi.json): %v", px.admin, err)
	}
	kept := px.Exchanges()
	if len(kept) < min {
		return fmt.Errorf("%d answers went through the proxy, want at least %d", len(kept), min)
	}
	var bad []string
	for _, x := range kept {
		x.Resp.Body = io.NopCloser(bytes.NewReader(x.Body))
		x.Resp.Request = x.Req
		if why := v.Response(x.Req, x.Resp); why != nil {
			bad = append(bad, fmt.Sprintf("%s %s → %d: %s", x.Req.Method, x.Req.URL.Path, x.Resp.StatusCode, strings.Join(why, "; ")))
		}
	}
	fmt.Fprintf(ts.Stdout(), "%d answers checked against %s/openapi.json\n", len(kept), px.admin)
	if len(bad) > 0 {
		msg := fmt.Sprintf("%d answers do not match the host's OpenAPI document:\n%s", len(bad), strings.Join(bad, "\n"))
		fmt.Fprintln(ts.Stdout(), msg) // a negated command is asserted on what it printed
		return errors.New(msg)
	}
	return nil
}
