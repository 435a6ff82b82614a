package selftest

import (
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestAnEndpointAnswered300IsNeitherServedNorRefused: worker-endpoint-follows-
// the-active-deployment sorts each apply of an endpoint into served (2xx) and
// refused (unsupported_capability) and fails any other answer. A proxy in front
// of hostsim answers every apply of an attachment with outputs 300 (a status
// Go's client does not follow); the check must fail naming it, not count a 300
// as served.
func TestAnEndpointAnswered300IsNeitherServedNorRefused(t *testing.T) {
	t.Parallel() // its own hostsim process
	const check = "worker-endpoint-follows-the-active-deployment"
	narrowedTo(t, check)
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, "full")
	var kinds []string
	for _, f := range cat.Forms() {
		if f.Role == "attachment" && f.HasOutputs() {
			kinds = append(kinds, "/"+f.Ref.Kind+"/")
		}
	}
	if len(kinds) == 0 {
		t.Fatal("the catalog has no attachment with outputs: the check has no endpoint to apply")
	}
	var altered atomic.Int32
	proxy := hostProxy(t, sim.URL)
	proxy.ModifyResponse = func(res *http.Response) error {
		if res.Request.Method == http.MethodPut && res.StatusCode < 300 &&
			slices.ContainsFunc(kinds, func(k string) bool { return strings.Contains(res.Request.URL.Path, k) }) {
			res.StatusCode, res.Status = http.StatusMultipleChoices, "300 Multiple Choices"
			altered.Add(1)
		}
		return nil
	}
	r := runChecks(t, ctx, serveLoopback(t, proxy), cat, []string{check})[check]
	if altered.Load() == 0 {
		t.Fatalf("no apply of an attachment with outputs (%v) was answered 300: %s", kinds, r.Line())
	}
	if r.Status != conformance.StatusFail || !strings.Contains(r.Message, "answered 300") {
		t.Errorf("every endpoint apply answered 300: %s, want a failure naming the 300", r.Line())
	}
}
