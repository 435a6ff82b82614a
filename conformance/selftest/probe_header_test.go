package selftest

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/takokit/takokit/conformance"
)

// TestNoProbeHeaderGoesToAHostThatIgnoresProbes: the runner learns from its
// discovery probe whether the host honours the conformance probe header, and
// sends it no further when it does not (docs/guides/conformance.md#against-hostsim). A proxy in
// front of hostsim drops the header from every request, so the host answers
// the discovery probe as one that ignores probes; condition-reason-closed,
// which asks a host that honours them to touch the status, must then send the
// header with no request after the discovery probe.
func TestNoProbeHeaderGoesToAHostThatIgnoresProbes(t *testing.T) {
	t.Parallel() // its own hostsim process
	const check = "condition-reason-closed"
	narrowedTo(t, check)
	bin := hostsimBinary(t)
	ctx, sim, cat := startSim(t, bin, "full")
	var (
		mu      sync.Mutex
		probed  []string // requests other than discovery that carried the header
		dropped int
	)
	proxy := hostProxy(t, sim.URL)
	direct := proxy.Director
	proxy.Director = func(r *http.Request) {
		direct(r)
		if v := r.Header.Get(conformance.ProbeHeader); v != "" {
			mu.Lock()
			dropped++
			if !strings.HasPrefix(r.URL.Path, "/.well-known/takoform/") { // the discovery probe
				probed = append(probed, r.Method+" "+r.URL.Path+" ("+v+")")
			}
			mu.Unlock()
			r.Header.Del(conformance.ProbeHeader)
		}
	}
	r := runChecks(t, ctx, serveLoopback(t, proxy), cat, []string{check})[check]
	mu.Lock()
	defer mu.Unlock()
	if dropped == 0 {
		t.Fatalf("the runner sent no probe header at all, not even its discovery probe: %s", r.Line())
	}
	if len(probed) > 0 {
		t.Errorf("a host that ignores probes was sent the probe header after discovery, in %v (%s)", probed, r.Line())
	}
	if r.Status == conformance.StatusError {
		t.Errorf("%s on a host that ignores probes: %s, want it to end without the probe", check, r.Line())
	}
}
