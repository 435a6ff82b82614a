package takoform

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/takokit/takokit/provider/internal/client"
)

// A support surface the plan cannot read (docs/provider-design.md#plan-time-support,
// decision 0031) is a warning: the plan proceeds and apply is the backstop. The
// provider's require_support_surface turns it into an error, for CI plan gates.

// undecided reports one support question the plan could not get answered.
func (c *supportCheck) undecided(subject string, err error) {
	rep := c.base()
	rep.summary = "Could not check host support for " + subject
	unreadable(c.r.configured, &rep, err, "Nothing was decided at plan time; apply still checks.")
	rep.add(c.d)
}

// unreadable fills rep (its summary and identity already set) for a support surface or a
// discovery document the plan could not read: why, the route, the code and the repair,
// as a warning or, with require_support_surface, an error. what is the consequence when
// it is a warning.
func unreadable(pd *providerData, rep *report, err error, what string) {
	var de *client.DiscoveryError
	if errors.As(err, &de) && de.HostLane != nil {
		// not an unreadable surface but a definite answer: the host speaks another lane
		// and can serve nothing this provider sends (docs/protocol.md#lanes)
		rep.withErr(err)
		rep.summary = strings.Replace(rep.summary, "Could not check host support for ", "Cannot plan ", 1) + ": the host speaks another lane"
		rep.what = fmt.Sprintf("The host at %s speaks %s; this provider speaks %s. Nothing this provider sends can reach it.",
			pd.client.Origin(), de.HostLane.Describe(), pd.client.Lane().Describe())
		return
	}
	rep.withLocalCode(codeHostSupportUnreadable, err)
	var se *client.SupportReadError
	if errors.As(err, &se) {
		rep.route = se.Route
	}
	rep.warning = !pd.requireSupport
	if pd.requireSupport {
		what = "require_support_surface is set, so a support surface the plan cannot read stops the plan instead of warning."
	}
	rep.what = what
	status, code, rejected := rejectedToken(err)
	switch {
	case rejected:
		rep.summary += ": the host rejected the token"
		rep.what = fmt.Sprintf("The host at %s rejected the token (%s): %s (HTTP %d). %s", pd.client.Origin(), pd.tokenFrom, code, status, what)
		rep.repair = tokenRepair(pd.tokenFrom, status)
	case rep.unreachable != "":
		// withErr's repair: check the endpoint and that the host runs
	default:
		rep.repair = "Make the host's support surface readable: the lines above say why it is not."
	}
	if pd.requireSupport {
		rep.repair += " To plan with a warning instead, unset require_support_surface (and " + envRequireSupport + "); apply still checks."
	} else {
		rep.repair += " Nothing to do if apply succeeds; to make a CI plan gate fail here instead, set require_support_surface = true."
	}
}

// rejectedToken reports a 401 or 403 answer anywhere in err: the host rejected the
// token (with a valid envelope's code, or without one).
func rejectedToken(err error) (status int, code string, ok bool) {
	if h, isHost := client.AsHost(err); isHost && (h.Status == http.StatusUnauthorized || h.Status == http.StatusForbidden) {
		return h.Status, string(h.Env.Code), true
	}
	var p *client.ProtocolError
	if errors.As(err, &p) && (p.Status == http.StatusUnauthorized || p.Status == http.StatusForbidden) {
		return p.Status, "an answer without a valid error envelope", true
	}
	return 0, "", false
}

// tokenRepair says which token to check: the one the attribute or the variable holds.
func tokenRepair(from string, status int) string {
	which := "the token attribute of the provider block (it takes precedence over TAKOFORM_TOKEN)"
	if from == tokenFromEnv {
		which = "TAKOFORM_TOKEN (the provider block sets no token attribute)"
	}
	if status == http.StatusForbidden {
		return "The host knows the token but does not let it read the support surface: put a token that may read it in " + which + "."
	}
	return "The host does not accept the token: check " + which + "."
}
