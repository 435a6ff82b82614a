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
			`endpoint "http://127.0.0.1:<port-1>/apis" must be a bare origin with no path: write http://127.0.0.1:<port-1> (the provider finds the API through discovery)`).at("endpoint")},
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

// TestWrongTokenReachesTheUserWithCodeAndRequest: a token the host does not know stops
// a create and an update at discovery; each says it was not sent, names the request
// that failed, the host's code and request id, and what to check.
func TestWrongTokenReachesTheUserWithCodeAndRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	cfg := values{aName: s("orders"), "message_retention_seconds": i64(60)}
	st := h.create(queueType, cfg)
	mustNoError(t, "configure", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "nobody", "space": "dev"}))
	fresh := values{aName: s("other"), "message_retention_seconds": i64(60)}
	pr := h.plan(queueType, fresh, nil)
	_, d := h.apply(queueType, fresh, nil, pr.planned)
	wantDiags(t, d, errorDiag("Failed to create AtLeastOnceQueue other: host discovery failed",
		"The host's discovery document could not be used, so the create was not sent; nothing was written to state.",
		"",
		"Host: the bearer token names no principal of this host; check the configured token",
		"",
		"Resource: takoform_at_least_once_queue (dev/other)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: GET /.well-known/takoform/v1beta1",
		"Request: <req-1>",
		"Code: unauthenticated (host, HTTP 401)",
		"Retryable: no",
		"",
		"The token is missing or unknown to the host. Check token in the provider block or TAKOFORM_TOKEN."))
	longer := cfg.clone()
	longer["message_retention_seconds"] = i64(120)
	pr = h.plan(queueType, longer, st)
	kept, d := h.apply(queueType, longer, st, pr.planned)
	// what the diagnostic says of the state holds: a failed update returns the prior
	// state, every attribute as it was (not the plan, with its unknowns)
	if kept == nil || len(kept) != len(st) || !sameValues(st, kept) {
		t.Errorf("the state after the refused update is %v; want the prior state %v", kept, st)
	}
	wantDiags(t, named(d, "<uid>", st.str(aUID)), errorDiag("Failed to update AtLeastOnceQueue orders: host discovery failed",
		"The host's discovery document could not be used, so the update was not sent; the state keeps the prior values.",
		"",
		"Host: the bearer token names no principal of this host; check the configured token",
		"",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: GET /.well-known/takoform/v1beta1",
		"Expected UID: <uid>",
		"Expected generation: 1",
		"Expected revision: 1",
		"Request: <req-1>",
		"Code: unauthenticated (host, HTTP 401)",
		"Retryable: no",
		"",
		"The token is missing or unknown to the host. Check token in the provider block or TAKOFORM_TOKEN."))
	if c, _ := h.sim.Admin.Counters(); c.Mutations != 1 {
		t.Errorf("mutations = %d, want only the first create's", c.Mutations)
	}
}

// TestProviderAttributeNotKnownYet: a provider attribute whose value is only known
// after apply (OpenTofu sends it unknown at plan time) is an error naming the
// attribute and what to configure instead, for each of the four.
func TestProviderAttributeNotKnownYet(t *testing.T) {
	t.Parallel()
	h := newHarness(t, hostsim.Config{})
	for _, c := range []struct{ attr, env string }{
		{"endpoint", "TAKOFORM_ENDPOINT"},
		{"space", "TAKOFORM_SPACE"},
		{"token", "TAKOFORM_TOKEN"},
		{"require_support_surface", "TAKOFORM_REQUIRE_SUPPORT_SURFACE"},
	} {
		cfg := map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev", "require_support_surface": "false"}
		cfg[c.attr] = unknownConfig
		wantDiags(t, h.configure(cfg), errorDiag("Provider "+c.attr+" is not known yet",
			"The "+c.attr+" of the takoform provider depends on a value that is only known after apply. "+
				"Configure it with a value known at plan time (or use "+c.env+").").at(c.attr))
	}
}
