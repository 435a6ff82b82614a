package dashboard

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
)

// session is what the dashboard knows of one browser: the token its forms
// must post back (a cookie the page copies into a hidden field; a page of
// another site can read neither).
type session struct {
	csrf string
}

const (
	sessionCookie = "hostsim_ui_session"
	csrfCookie    = "hostsim_ui_csrf"
	csrfField     = "csrf"
)

// cookieName gives each port its own cookies: several hosts on 127.0.0.1
// (`go tool mage sim`) share one cookie jar, which ignores ports.
func cookieName(base string, r *http.Request) string {
	if _, port, err := net.SplitHostPort(r.Host); err == nil && port != "" {
		return base + "_" + port
	}
	return base
}

// sessionValue is the session cookie of an admin token: derived from it, so
// the cookie never holds the token itself and stays valid across a restart
// with the same token.
func sessionValue(token string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("hostsim dashboard session v1"))
	return hex.EncodeToString(m.Sum(nil))
}

// admit answers ?token= (a cookie, then a redirect to the address without
// the token, so it never stays in the address bar or the history), requires
// the admin token when one is set, and gives the browser its form token.
// done reports that the answer is already written.
func (u *UI) admit(w http.ResponseWriter, r *http.Request) (s *session, done bool) {
	s = &session{}
	if c, err := r.Cookie(cookieName(csrfCookie, r)); err == nil && len(c.Value) == 64 {
		s.csrf = c.Value
	} else {
		b := make([]byte, 32)
		_, _ = rand.Read(b)
		s.csrf = hex.EncodeToString(b)
		http.SetCookie(w, &http.Cookie{Name: cookieName(csrfCookie, r), Value: s.csrf, Path: Prefix + "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	q := r.URL.Query()
	if q.Has("token") {
		given := q.Get("token")
		q.Del("token")
		if u.Token != "" {
			if !hmac.Equal([]byte(given), []byte(u.Token)) {
				u.errorPage(w, r, s, &pageError{Status: http.StatusUnauthorized, Title: "Wrong admin token",
					Detail: "The token in the address is not this host's admin token (hostsim serve --admin-token). " +
						"Open the dashboard again with ?token=<admin token>."})
				return s, true
			}
			// Lax: the cookie must come along when the dashboard is opened from a
			// link elsewhere; forms are guarded by the form token, not by it.
			http.SetCookie(w, &http.Cookie{Name: cookieName(sessionCookie, r), Value: sessionValue(u.Token), Path: Prefix + "/",
				HttpOnly: true, SameSite: http.SameSiteLaxMode})
		}
		target := r.URL.Path
		if rest := q.Encode(); rest != "" {
			target += "?" + rest
		}
		http.Redirect(w, r, target, http.StatusSeeOther)
		return s, true
	}
	if u.Token != "" && !u.authorized(r) {
		w.Header().Set(wire.HeaderWWWAuthenticate, "Bearer")
		u.errorPage(w, r, s, &pageError{Status: http.StatusUnauthorized, Title: "Admin token needed",
			Detail: "This host was started with --admin-token. Open " + Prefix + "/?token=<admin token> once; " +
				"the dashboard keeps it in an HttpOnly cookie and drops it from the address."})
		return s, true
	}
	return s, false
}

// authorized accepts the session cookie or the admin API's bearer.
func (u *UI) authorized(r *http.Request) bool {
	if h := r.Header.Get(wire.HeaderAuthorization); h != "" {
		return hmac.Equal([]byte(h), []byte("Bearer "+u.Token))
	}
	c, err := r.Cookie(cookieName(sessionCookie, r))
	return err == nil && hmac.Equal([]byte(c.Value), []byte(sessionValue(u.Token)))
}

// checkPost refuses a form that was not posted by a dashboard page: the
// browser says the request is cross-site (Sec-Fetch-Site, Origin), or the
// form token does not match the cookie. Nothing changes on a refusal.
func (s *session) checkPost(r *http.Request) error {
	refuse := func(why string) error {
		return &pageError{Status: http.StatusForbidden, Title: "Refused: not posted by this dashboard",
			Detail: why + " Nothing was changed. Reload the dashboard page and submit the form again."}
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return refuse("The browser marked this request " + site + " (Sec-Fetch-Site); only the dashboard's own pages may post.")
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		scheme := "http://"
		if r.TLS != nil {
			scheme = "https://"
		}
		if !strings.EqualFold(origin, scheme+r.Host) {
			return refuse("The form came from " + origin + ", not from the dashboard at " + scheme + r.Host + ".")
		}
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return &pageError{Status: http.StatusBadRequest, Title: "Unreadable form", Detail: "The form could not be read: " + err.Error()}
	}
	if got := r.PostForm.Get(csrfField); !hmac.Equal([]byte(got), []byte(s.csrf)) {
		return refuse("The form token is missing or stale (it must match the dashboard's cookie).")
	}
	return nil
}
