package takoform

import (
	"net"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/takokit/takokit/hostsim"
)

var queueOrders = values{aName: s("orders"), "message_retention_seconds": i64(3600)}

const queueSubject = "Could not check host support for Form AtLeastOnceQueue 0.2.0"

// deadOrigin is a loopback origin nothing listens on (a port just released).
func deadOrigin(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return "http://" + l.Addr().String()
}

// TestRejectedTokenWarningSaysSoAndWhereTheTokenCameFrom: a 401 or 403 from the support
// surface stays a warning (decision 0031), and says plainly that the host rejected the
// token, whether the attribute or TAKOFORM_TOKEN held it, and which to check.
func TestRejectedTokenWarningSaysSoAndWhereTheTokenCameFrom(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	t.Setenv("TAKOFORM_TOKEN", "")
	cases := []struct {
		name, token, env, fault string
		want                    []string
	}{
		{"401, token attribute", "nobody-attr", "", "", []string{
			"The host at " + h.sim.URL + " rejected the token (from the provider's token attribute): unauthenticated (HTTP 401).",
			"check the token attribute of the provider block", "Route: GET /.well-known/", "Request: req_"}},
		{"401, environment", "", "nobody-env", "", []string{
			"rejected the token (from the TAKOFORM_TOKEN environment variable): unauthenticated (HTTP 401).",
			"check TAKOFORM_TOKEN (the provider block sets no token attribute)", "Route: GET /.well-known/"}},
		{"403 from the support route", "sim-primary", "", "error=permission_denied,route=support-form", []string{
			"rejected the token (from the provider's token attribute): permission_denied (HTTP 403).",
			"does not let it read the support surface", "Route: GET /", "/support/forms/", "Request: req_"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("TAKOFORM_TOKEN", c.env)
			if c.fault != "" {
				if err := h.sim.Admin.ArmFault(c.fault); err != nil {
					t.Fatal(err)
				}
				defer h.sim.Admin.DisarmFaults()
			}
			cfg := map[string]string{"endpoint": h.sim.URL, "space": "dev"}
			if c.token != "" {
				cfg["token"] = c.token
			}
			mustNoError(t, "configure", h.configure(cfg))
			pr := h.plan(queueType, queueOrders, nil)
			mustNoError(t, "a rejected token is not a refusal", pr.diags)
			want := append([]string{queueSubject + ": the host rejected the token", codeHostSupportUnreadable,
				"Nothing was decided at plan time; apply still checks.", "set require_support_surface = true"}, c.want...)
			d := diagWith(pr.diags, want...)
			if d == nil || d.Severity != tfprotov6.DiagnosticSeverityWarning {
				t.Fatalf("want the warning with %q:\n%s", want, dump(pr.diags))
			}
			for _, secret := range []string{"nobody-attr", "nobody-env", "sim-primary"} {
				if strings.Contains(dump(pr.diags), secret) {
					t.Errorf("the diagnostics print the token %q", secret)
				}
			}
		})
	}
}

// TestRequireSupportSurfaceTurnsEveryUnreadableReasonIntoAPlanError: with the setting
// (attribute or TAKOFORM_REQUIRE_SUPPORT_SURFACE) a rejected token, a 403, a 5xx, an
// unreachable host and a malformed profile each stop the plan with an error naming the
// resource, the route, the code and what to do; without it each stays a warning.
func TestRequireSupportSurfaceTurnsEveryUnreadableReasonIntoAPlanError(t *testing.T) {
	t.Setenv(envRequireSupport, "")
	full := newHarness(t, hostsim.Config{})
	unavailable := newHarness(t, hostsim.Config{Profile: "unreadable-support"})
	cases := []struct {
		name     string
		h        *harness
		endpoint string
		token    string
		fault    string
		want     []string
	}{
		{"401", full, full.sim.URL, "nobody", "", []string{"the host rejected the token", "unauthenticated (host, HTTP 401)", "Route: GET /.well-known/"}},
		{"403", full, full.sim.URL, "sim-primary", "error=permission_denied,route=support-form", []string{"the host rejected the token", "permission_denied (host, HTTP 403)", "/support/forms/"}},
		{"5xx", unavailable, unavailable.sim.URL, "sim-primary", "", []string{"backend_unavailable (host, HTTP 503)", "/support/forms/", "Make the host's support surface readable"}},
		{"unreachable", full, deadOrigin(t), "sim-primary", "", []string{"host unreachable at http://127.0.0.1:", codeHostUnreachable, "Route: GET /.well-known/"}},
		{"malformed profile", full, full.sim.URL, "sim-primary", "support.commercial", []string{"protocol-invalid host response (HTTP 200)", "price", "/support/forms/"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := c.h
			if c.fault != "" {
				if err := h.sim.Admin.ArmFault(c.fault); err != nil {
					t.Fatal(err)
				}
				defer h.sim.Admin.DisarmFaults()
			}
			base := map[string]string{"endpoint": c.endpoint, "token": c.token, "space": "dev"}
			// the default: a warning, the plan proceeds
			mustNoError(t, "configure", h.configure(base))
			pr := h.plan(queueType, queueOrders, nil)
			mustNoError(t, "without the setting", pr.diags)
			if d := diagWith(pr.diags, append([]string{queueSubject}, c.want...)...); d == nil || d.Severity != tfprotov6.DiagnosticSeverityWarning {
				t.Fatalf("without the setting want a warning with %q:\n%s", c.want, dump(pr.diags))
			}
			// the attribute, and the environment variable with the attribute unset
			strict := map[string]string{"require_support_surface": "true"}
			for k, v := range base {
				strict[k] = v
			}
			for _, how := range []struct {
				name string
				cfg  map[string]string
				env  string
			}{{"attribute", strict, ""}, {"environment", base, "true"}} {
				t.Setenv(envRequireSupport, how.env)
				mustNoError(t, "configure "+how.name, h.configure(how.cfg))
				pr = h.plan(queueType, queueOrders, nil)
				want := append([]string{queueSubject, "Resource: takoform_at_least_once_queue (dev/orders)", "Route: GET /",
					codeHostSupportUnreadable, "require_support_surface is set", "unset require_support_surface"}, c.want...)
				d := diagWith(pr.diags, want...)
				if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError {
					t.Errorf("%s: want a plan error with %q:\n%s", how.name, want, dump(pr.diags))
				}
			}
			// an explicit false wins over the environment
			t.Setenv(envRequireSupport, "true")
			off := map[string]string{"require_support_surface": "false"}
			for k, v := range base {
				off[k] = v
			}
			mustNoError(t, "configure false", h.configure(off))
			mustNoError(t, "require_support_surface = false over the environment's true", h.plan(queueType, queueOrders, nil).diags)
			t.Setenv(envRequireSupport, "")
		})
	}
}

// TestRequireSupportSurfaceOnAReadableHostChangesNothing: the setting adds no request and
// no diagnostic where the support surface answers.
func TestRequireSupportSurfaceOnAReadableHostChangesNothing(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	mustNoError(t, "configure", h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev", "require_support_surface": "true"}))
	pr := h.plan(queueType, queueOrders, nil)
	if len(pr.diags) != 0 {
		t.Fatalf("want a clean plan:\n%s", dump(pr.diags))
	}
}

func TestRequireSupportSurfaceEnvironmentMustBeABoolean(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	t.Setenv(envRequireSupport, "sometimes")
	ds := h.configure(map[string]string{"endpoint": h.sim.URL, "token": "sim-primary", "space": "dev"})
	d := diagWith(ds, "Invalid "+envRequireSupport, `"sometimes" is not a boolean`)
	if d == nil || d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil || d.Attribute.String() != `AttributeName("require_support_surface")` {
		t.Fatalf("want the configuration error:\n%s", dump(ds))
	}
}
