package takoform

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

func TestProviderConfigurationErrors(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	t.Setenv("TAKOFORM_ENDPOINT", "")
	t.Setenv("TAKOFORM_TOKEN", "")
	t.Setenv("TAKOFORM_SPACE", "")
	cases := []struct {
		cfg  map[string]string
		want string
		attr string
	}{
		{map[string]string{"token": "t"}, "Missing takoform endpoint", "endpoint"},
		{map[string]string{"endpoint": h.sim.URL}, "Missing takoform token", "token"},
		{map[string]string{"endpoint": "http://192.0.2.1", "token": "t"}, "not loopback", "endpoint"},
		{map[string]string{"endpoint": h.sim.URL + "/apis", "token": "t"}, "no path", "endpoint"},
		{map[string]string{"endpoint": h.sim.URL, "token": "t", "space": "a/b"}, "contains \"/\"", "space"},
	}
	for _, c := range cases {
		ds := h.configure(c.cfg)
		d := diagWith(ds, c.want)
		if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
			t.Errorf("%v: want %q:\n%s", c.cfg, c.want, dump(ds))
			continue
		}
		if d.Attribute == nil || d.Attribute.String() != `AttributeName("`+c.attr+`")` {
			t.Errorf("%v: attribute = %v, want %s", c.cfg, d.Attribute, c.attr)
		}
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
	if diagWith(d, "Host discovery failed", "unauthenticated (host, HTTP 401)", "Request: req_", "TAKOFORM_TOKEN") == nil {
		t.Errorf("want the host's code, request id and the token repair:\n%s", dump(d))
	}
}
