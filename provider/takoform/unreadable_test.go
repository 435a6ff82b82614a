package takoform

import (
	"net"
	"strings"
	"testing"

	"github.com/takokit/takokit/hostsim"
)

var queueOrders = values{aName: s("orders"), "message_retention_seconds": i64(3600)}

const queueSubject = "Could not check host support for Form AtLeastOnceQueue 0.2.0"

// unreadableRead is a support read the plan could not make, as its diagnostic says it:
// with require_support_surface (strict) an error, else a warning.
type unreadableRead struct {
	suffix  string // of the summary, after queueSubject
	why     string // what happened, before the verdict ("" when the lines below say it)
	host    string // the Host: or Cause: line
	route   string // the request it stopped at
	request bool   // whether the host's request id is named (<req-1>)
	code    string // the host's or protocol code beside host-support-unreadable
	retry   bool   // what the host said
	repair  string // what to do about the cause, before the verdict's advice
}

func (u unreadableRead) diag(strict bool) diagnostic {
	verdict, advice := "Nothing was decided at plan time; apply still checks.",
		" Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."
	if strict {
		verdict, advice = "require_support_surface is set, so a support surface the plan cannot read stops the plan instead of warning.",
			" To plan with a warning instead, unset require_support_surface (and TAKOFORM_REQUIRE_SUPPORT_SURFACE); apply still checks."
	}
	lines := []string{u.why + verdict, "", u.host, "",
		"Resource: takoform_at_least_once_queue (dev/orders)",
		"Form: edge.forms.takokit.dev/v1beta1 AtLeastOnceQueue@0.2.0 schema=<sha256-1>",
		"Route: " + u.route}
	if u.request {
		lines = append(lines, "Request: <req-1>")
	}
	retry := "Retryable: no"
	if u.retry {
		retry = "Retryable: yes"
	}
	lines = append(lines, "Code: takoform.provider/host-support-unreadable ("+u.code+")", retry, "", u.repair+advice)
	if strict {
		return errorDiag(queueSubject+u.suffix, lines...)
	}
	return warningDiag(queueSubject+u.suffix, lines...)
}

// The reads of the support surface and their routes.
const (
	discoveryRoute = "GET /.well-known/takoform/v1beta1"
	queueRoute     = "GET /apis/forms.takoform.com/v1beta1/support/forms/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/0.2.0"
	noPrincipal    = "Host: the bearer token names no principal of this host; check the configured token"
	deniedByFault  = "Host: error permission_denied injected by an armed hostsim fault (error=permission_denied)"
)

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

// emptyToken stands for a token attribute set to "" in a case's table.
const emptyToken = "<empty>"

// TestRejectedTokenWarningSaysSoAndWhereTheTokenCameFrom: a 401 or 403 from the support
// surface stays a warning (decision 0031), and says plainly that the host rejected the
// token, whether the attribute or TAKOFORM_TOKEN held it, and which to check.
func TestRejectedTokenWarningSaysSoAndWhereTheTokenCameFrom(t *testing.T) {
	h := newHarness(t, hostsim.Config{})
	t.Setenv("TAKOFORM_TOKEN", "")
	cases := []struct {
		name, token, env, fault string
		want                    unreadableRead
	}{
		{"401, token attribute", "nobody-attr", "", "", unreadableRead{": the host rejected the token",
			"The host at <host> rejected the token (from the provider's token attribute): unauthenticated (HTTP 401). ", noPrincipal,
			discoveryRoute, true, "unauthenticated (host, HTTP 401)", false,
			"The host does not accept the token: check the token attribute of the provider block (it takes precedence over TAKOFORM_TOKEN)."}},
		{"401, environment", "", "nobody-env", "", unreadableRead{": the host rejected the token",
			"The host at <host> rejected the token (from the TAKOFORM_TOKEN environment variable): unauthenticated (HTTP 401). ", noPrincipal,
			discoveryRoute, true, "unauthenticated (host, HTTP 401)", false,
			"The host does not accept the token: check TAKOFORM_TOKEN (the provider block sets no token attribute)."}},
		// a token attribute set to "" is unset: the environment's token is the one sent
		{"401, empty token attribute, environment", emptyToken, "nobody-env", "", unreadableRead{": the host rejected the token",
			"The host at <host> rejected the token (from the TAKOFORM_TOKEN environment variable): unauthenticated (HTTP 401). ", noPrincipal,
			discoveryRoute, true, "unauthenticated (host, HTTP 401)", false,
			"The host does not accept the token: check TAKOFORM_TOKEN (the provider block sets no token attribute)."}},
		{"403 from the support route", "sim-primary", "", "error=permission_denied,route=support-form", unreadableRead{": the host rejected the token",
			"The host at <host> rejected the token (from the provider's token attribute): permission_denied (HTTP 403). ", deniedByFault,
			queueRoute, true, "permission_denied (host, HTTP 403)", false,
			"The host knows the token but does not let it read the support surface: put a token that may read it in the token attribute of the provider block (it takes precedence over TAKOFORM_TOKEN)."}},
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
			switch c.token {
			case "":
			case emptyToken:
				cfg["token"] = ""
			default:
				cfg["token"] = c.token
			}
			mustNoError(t, "configure", h.configure(cfg))
			pr := h.plan(queueType, queueOrders, nil)
			// a rejected token is not a refusal: a warning
			wantDiags(t, named(pr.diags, "<host>", h.sim.URL), c.want.diag(false))
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
	const readable = "Make the host's support surface readable: the lines above say why it is not."
	cases := []struct {
		name     string
		h        *harness
		endpoint string
		token    string
		fault    string
		want     unreadableRead
	}{
		{"401", full, full.sim.URL, "nobody", "", unreadableRead{": the host rejected the token",
			"The host at <host> rejected the token (from the provider's token attribute): unauthenticated (HTTP 401). ", noPrincipal,
			discoveryRoute, true, "unauthenticated (host, HTTP 401)", false,
			"The host does not accept the token: check the token attribute of the provider block (it takes precedence over TAKOFORM_TOKEN)."}},
		{"403", full, full.sim.URL, "sim-primary", "error=permission_denied,route=support-form", unreadableRead{": the host rejected the token",
			"The host at <host> rejected the token (from the provider's token attribute): permission_denied (HTTP 403). ", deniedByFault,
			queueRoute, true, "permission_denied (host, HTTP 403)", false,
			"The host knows the token but does not let it read the support surface: put a token that may read it in the token attribute of the provider block (it takes precedence over TAKOFORM_TOKEN)."}},
		{"5xx", unavailable, unavailable.sim.URL, "sim-primary", "", unreadableRead{"", "",
			`Host: support profiles are unavailable on this host (profile "unreadable-support"); retry later`,
			queueRoute, true, "backend_unavailable (host, HTTP 503)", true, readable}},
		{"unreachable", full, deadOrigin(t), "sim-primary", "", unreadableRead{": host unreachable at <host>", "",
			"Cause: host unreachable at <host>: connection refused (nothing listens at that address) (GET /.well-known/takoform/v1beta1)",
			discoveryRoute, false, "takoform.provider/host-unreachable", true,
			"No host answered at <host>. Check the endpoint (endpoint or TAKOFORM_ENDPOINT), that the host is running and that this machine can reach it, then run the command again."}},
		{"malformed profile", full, full.sim.URL, "sim-primary", "support.commercial", unreadableRead{"", "",
			`Cause: support profile /forms/edge.forms.takokit.dev/v1beta1/AtLeastOnceQueue/0.2.0: /price: unknown member "price"; this object is closed, so remove it or check its spelling`,
			queueRoute, false, "protocol-invalid host response (HTTP 200)", false, readable}},
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
			wantDiags(t, named(pr.diags, "<host>", c.endpoint), c.want.diag(false))
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
				wantDiags(t, named(pr.diags, "<host>", c.endpoint), c.want.diag(true))
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
	t.Parallel()
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
	wantDiags(t, ds, errorDiag("Invalid TAKOFORM_REQUIRE_SUPPORT_SURFACE",
		`TAKOFORM_REQUIRE_SUPPORT_SURFACE="sometimes" is not a boolean; set it to true or false, or unset it (the default is false).`).at("require_support_surface"))
}
