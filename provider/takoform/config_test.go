package takoform

import (
	"testing"

	"github.com/takokit/takokit/hostsim"
)

func TestProviderConfigurationErrors(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	t.Setenv("TAKOFORM_ENDPOINT", "")
	t.Setenv("TAKOFORM_TOKEN", "")
	t.Setenv("TAKOFORM_SPACE", "")
	cases := []struct {
		cfg  map[string]string
		want diagnostic
	}{
		{map[string]string{"token": "t"}, errorDiag("Missing takoform endpoint",
			"Set endpoint in the provider block or TAKOFORM_ENDPOINT to the host's bare origin, e.g. https://host.example.").at("endpoint")},
		{map[string]string{"endpoint": h.sim.URL}, errorDiag("Missing takoform token",
			"Set token in the provider block or TAKOFORM_TOKEN to the bearer credential the host issued.").at("token")},
		{map[string]string{"endpoint": "http://192.0.2.1", "token": "t"}, errorDiag("Invalid takoform endpoint",
			`endpoint "http://192.0.2.1" uses plain http to a host that is not loopback; use https (http is allowed only for localhost, 127.0.0.0/8 and ::1)`).at("endpoint")},
		{map[string]string{"endpoint": h.sim.URL + "/apis", "token": "t"}, errorDiag("Invalid takoform endpoint",
			`endpoint "http://127.0.0.1:<port-1>/apis" must be a bare origin with no path`).at("endpoint")},
		{map[string]string{"endpoint": h.sim.URL, "token": "t", "space": "a/b"}, errorDiag("Invalid takoform space",
			`space "a/b" contains "/"; choose a space name without a slash`).at("space")},
	}
	for _, c := range cases {
		wantDiags(t, h.configure(c.cfg), c.want)
	}
	// environment fallback when the attributes are unset or empty
	t.Setenv("TAKOFORM_ENDPOINT", h.sim.URL)
	t.Setenv("TAKOFORM_TOKEN", "sim-primary")
	t.Setenv("TAKOFORM_SPACE", "env-space")
	mustNoError(t, "configure from the environment", h.configure(map[string]string{"endpoint": ""}))
	before, _ := counters(t, h)
	if before != 0 {
		t.Errorf("configure made %d requests; it must make none", before)
	}
	st := h.create(queueType, values{aName: s("orders"), "message_retention_seconds": i64(60)})
	if st.str(aSpace) != "env-space" {
		t.Errorf("space = %q, want the environment's", st.str(aSpace))
	}
}

func TestWrongTokenReachesTheUserWithCodeAndRequest(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	mustNoError(t, "configure", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "nobody", "space": "dev"}))
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(60)}
	pr := h.plan(queueType, cfg, nil)
	_, d := h.apply(queueType, cfg, nil, pr.planned)
	wantDiags(t, d, errorDiag("Host discovery failed",
		"The host refused the create; nothing was written to state.",
		"",
		"Host: the bearer token names no principal of this host; check the configured token",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Pointer: /spec",
		"Request: <req-1>",
		"Code: unauthenticated (host, HTTP 401)",
		"Retryable: no",
		"",
		"The token is missing or unknown to the host. Check token in the provider block or TAKOFORM_TOKEN."))
}
