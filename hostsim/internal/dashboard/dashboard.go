// Package dashboard serves hostsim's dashboard under /_sim/ui/
// (docs/guides/dashboard.md): server-rendered pages of one running host —
// the profile and its refusals, counters, resources with their typed
// outputs, operations, the Form transition ledger and faults — kept live by
// one Server-Sent Events stream fed by the journal. It reads everything from
// internal/hostview and changes the host only through it (arming faults,
// finishing operations), under the admin API's rules: loopback only, and the
// admin token when one is set (docs/protocol.md#admin).
package dashboard

import (
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/takokit/takokit/hostsim/internal/hostview"
)

// Prefix is the dashboard's path prefix, below the admin API's.
const Prefix = "/_sim/ui"

// UI is the dashboard handler of one host.
type UI struct {
	State *hostview.Source
	Token string // the admin token; "" = none
	// WriteTimeout bounds one write of the live stream: a browser that stops
	// reading loses its stream after it, and never holds up the host.
	WriteTimeout time.Duration
	pages        map[string]*template.Template
	quit         chan struct{} // closed by End
	ending       sync.Once
}

// New builds the dashboard of src; token is the admin token ("" = none).
func New(src *hostview.Source, token string) (*UI, error) {
	pages, err := parsedPages()
	if err != nil {
		return nil, err
	}
	return &UI{State: src, Token: token, WriteTimeout: 10 * time.Second, pages: pages, quit: make(chan struct{})}, nil
}

// End ends every live stream and refuses new ones: an http.Server's
// Shutdown waits for connections to go idle, which a stream never does.
func (u *UI) End() { u.ending.Do(func() { close(u.quit) }) }

// handler serves one route; args are the path segments its pattern captured.
type handler func(u *UI, w http.ResponseWriter, r *http.Request, s *session, args []string) error

type route struct {
	method  string
	pattern string // below Prefix; "*" captures one segment, a trailing "**" the rest
	h       handler
}

var routes = []route{
	{"GET", "/", (*UI).hostPage},
	{"GET", "/resources", (*UI).resourcesPage},
	{"GET", "/resources/**", (*UI).resourcePage},
	{"GET", "/operations", (*UI).operationsPage},
	{"POST", "/operations/*/complete", (*UI).completeOperation},
	{"GET", "/transitions", (*UI).transitionsPage},
	{"GET", "/faults", (*UI).faultsPage},
	{"POST", "/faults", (*UI).armFault},
	{"POST", "/faults/disarm", (*UI).disarmFaults},
	{"GET", "/events", (*UI).events},
	{"GET", "/assets/*", (*UI).asset},
}

// ServeHTTP checks who is asking, then routes.
func (u *UI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // no-referrer would make a browser post Origin: null
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	if !loopback(r.RemoteAddr) {
		u.plain(w, http.StatusForbidden, "The hostsim dashboard answers only on loopback.")
		return
	}
	if !loopbackHost(r.Host) {
		u.plain(w, http.StatusForbidden, "The hostsim dashboard answers only under a loopback address (127.0.0.1, [::1] or localhost); "+
			"open it with the URL hostsim printed.")
		return
	}
	path := strings.TrimPrefix(r.URL.Path, Prefix)
	if path == "" {
		http.Redirect(w, r, Prefix+"/", http.StatusMovedPermanently)
		return
	}
	s, done := u.admit(w, r)
	if done {
		return
	}
	escaped, _ := strings.CutPrefix(r.URL.EscapedPath(), Prefix)
	var allow []string
	for _, rt := range routes {
		args, ok := match(rt.pattern, escaped)
		if !ok {
			continue
		}
		if rt.method != r.Method {
			allow = append(allow, rt.method)
			continue
		}
		if rt.method == http.MethodPost {
			if err := s.checkPost(r); err != nil {
				u.errorPage(w, r, s, err)
				return
			}
		}
		if err := rt.h(u, w, r, s, args); err != nil {
			u.errorPage(w, r, s, err)
		}
		return
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		u.errorPage(w, r, s, &pageError{Status: http.StatusMethodNotAllowed, Title: "Method not allowed",
			Detail: r.Method + " " + r.URL.Path + " is not served; this address answers " + strings.Join(allow, " and ") + "."})
		return
	}
	u.errorPage(w, r, s, notFound("No dashboard page at %s.", r.URL.Path))
}

// match compares an escaped path with a pattern and returns the unescaped
// captured segments.
func match(pattern, path string) ([]string, bool) {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	var args []string
	for i, p := range ps {
		if p == "**" {
			rest := xs[min(i, len(xs)):]
			if len(rest) == 0 {
				return nil, false
			}
			for _, x := range rest {
				v, ok := unescape(x)
				if !ok {
					return nil, false
				}
				args = append(args, v)
			}
			return args, true
		}
		if i >= len(xs) {
			return nil, false
		}
		switch {
		case p == "*":
			v, ok := unescape(xs[i])
			if !ok || v == "" {
				return nil, false
			}
			args = append(args, v)
		case p != xs[i]:
			return nil, false
		}
	}
	return args, len(ps) == len(xs)
}

func unescape(seg string) (string, bool) {
	v, err := url.PathUnescape(seg)
	return v, err == nil
}

func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackHost refuses a Host header that is not a loopback address or
// localhost: a page of another site whose name was made to resolve to
// 127.0.0.1 (DNS rebinding) reaches the listener, never the dashboard.
func loopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = hostport
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// plain answers a refusal that comes before any page can be drawn.
func (u *UI) plain(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(msg + "\n"))
}
