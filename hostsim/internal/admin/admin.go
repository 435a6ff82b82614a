// Package admin serves hostsim's /_sim/ API (docs/protocol.md#admin): state,
// journal, counters, faults, operation completion, reset and the profile in
// force. Every answer is read from internal/hostview; refusals use the lane's
// error envelope.
package admin

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/hostview"
	"github.com/takokit/takokit/hostsim/internal/openapi"
)

// Prefix is the admin API's path prefix.
const Prefix = "/_sim"

// API is the admin handler.
type API struct {
	State  *hostview.Source
	Token  string // when set, the bearer the admin API requires
	Health Health // what GET /_sim/health says besides the profile
	// OpenAPI returns the host's OpenAPI document (GET /_sim/openapi.json).
	OpenAPI func() ([]byte, error)
}

type handler func(a *API, w http.ResponseWriter, r *http.Request, arg string) error

type route struct {
	method, path string // path below /_sim; a "*" captures one segment
	h            handler
	open         bool                 // answers without the admin token (still loopback only)
	summary      string               // what it answers, for the OpenAPI document
	query        []openapi.AdminParam // the query keys it takes; any other is refused
}

var table = []route{
	{"GET", "/health", (*API).health, true, "The host is up: lane, profile, version, uptime, GOMAXPROCS.", nil},
	{"GET", "/openapi.json", (*API).openapi, true, "This OpenAPI document.", nil},
	{"GET", "/state", (*API).state, false, "Everything the host holds, as the dashboard shows it.", nil},
	{"GET", "/events", (*API).events, false, "The journal after a sequence number.",
		[]openapi.AdminParam{{Name: "since", About: "the number of the last event already read (0 or absent: from the oldest kept)"}}},
	{"GET", "/counters", (*API).counters, false, "Requests, mutations, uploads, support reads, dispatches and fault firings.", nil},
	{"GET", "/faults", (*API).faults, false, "The armed faults with their firings.", nil},
	{"POST", "/faults", (*API).armFault, false, "Arm a fault.", nil},
	{"DELETE", "/faults", (*API).disarm, false, "Disarm every fault armed at run time; the profile's own stay armed.", nil},
	{"POST", "/operations/*/complete", (*API).complete, false, "Settle a pending operation.", nil},
	{"POST", "/reset", (*API).reset, false, "Forget every resource.", nil},
	{"GET", "/profile", (*API).profile, false, "The merged profile in force.", nil},
	{"GET", "/refusals", (*API).refusals, false, "What the profile refuses compared with full.", nil},
	{"GET", "/assets/*", (*API).assets, false, "What a request pathname does on a Worker Version with static assets (?path=, escaped once more).",
		[]openapi.AdminParam{{Name: "path", Required: true, About: "the escaped request pathname, with any query or fragment, escaped once more as a query value"}}},
	{"GET", "/databases", (*API).databases, false, "Each SQLiteDatabase's real database: its migration ledger and its tables' shape.", nil},
	{"GET", "/databases/*", (*API).database, false, "One SQLiteDatabase's real database, by the resource's uid.", nil},
}

// Routes lists the admin API's routes in table order, for the OpenAPI document.
func Routes() []openapi.AdminRoute {
	out := make([]openapi.AdminRoute, len(table))
	for i, r := range table {
		out[i] = openapi.AdminRoute{Method: r.method, Path: r.path, Summary: r.summary, Open: r.open, Query: r.query}
	}
	return out
}

// openapi answers the host's OpenAPI document (docs/protocol.md#openapi): no admin token,
// loopback only, like health.
func (a *API) openapi(w http.ResponseWriter, _ *http.Request, _ string) error {
	if a.OpenAPI == nil {
		return decide.NotFound("this host was built without an OpenAPI document")
	}
	b, err := a.OpenAPI()
	if err != nil {
		return err
	}
	w.Header().Set(wire.HeaderContentType, wire.ContentTypeJSON)
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}

// ServeHTTP routes an admin request.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopback(r.RemoteAddr) {
		writeErr(w, decide.Refuse(wire.CodePermissionDenied, "the hostsim admin API answers only on loopback"))
		return
	}
	path := strings.TrimPrefix(r.URL.Path, Prefix)
	var hit *route
	var arg string
	for i := range table {
		if a, ok := matchPath(table[i].path, path); ok && table[i].method == r.Method {
			hit, arg = &table[i], a
			break
		}
	}
	if a.Token != "" && (hit == nil || !hit.open) && r.Header.Get(wire.HeaderAuthorization) != "Bearer "+a.Token {
		w.Header().Set(wire.HeaderWWWAuthenticate, "Bearer")
		writeErr(w, decide.Refuse(wire.CodeUnauthenticated, "the hostsim admin API needs Authorization: Bearer <admin token>"))
		return
	}
	if hit == nil {
		writeErr(w, decide.NotFound("no admin route %s %s%s", r.Method, r.URL.Path, methodsOf(path)))
		return
	}
	for k := range r.URL.Query() {
		if !slices.ContainsFunc(hit.query, func(p openapi.AdminParam) bool { return p.Name == k }) {
			writeErr(w, decide.Invalid("%s %s takes %s; remove %q (GET %s/openapi.json describes every admin route)", hit.method, Prefix+openapi.DocPath(hit.path), queryKeys(hit.query), k, Prefix))
			return
		}
	}
	if err := hit.h(a, w, r, arg); err != nil {
		writeErr(w, err)
	}
}

// methodsOf is, for a path some route answers with another method, which methods
// it has ("; /_sim/faults answers GET, POST, DELETE"), else "".
func methodsOf(path string) string {
	var ms []string
	for _, rt := range table {
		if _, ok := matchPath(rt.path, path); ok { // no two routes of one method match one path
			ms = append(ms, rt.method)
		}
	}
	if len(ms) == 0 {
		return ""
	}
	return "; " + Prefix + path + " answers " + strings.Join(ms, ", ")
}

// queryKeys says which query keys a route takes.
func queryKeys(ps []openapi.AdminParam) string {
	if len(ps) == 0 {
		return "no query parameter"
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	return "only the query parameter " + strings.Join(names, ", ")
}

func matchPath(pattern, path string) (string, bool) {
	pre, post, wild := strings.Cut(pattern, "*")
	if !wild {
		return "", pattern == path
	}
	if !strings.HasPrefix(path, pre) || !strings.HasSuffix(path, post) || len(path) <= len(pre)+len(post) {
		return "", false
	}
	arg := path[len(pre) : len(path)-len(post)]
	return arg, !strings.Contains(arg, "/")
}

func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// writeErr answers in the lane's error envelope: a refusal as it is, any
// other error as invalid_argument naming it.
func writeErr(w http.ResponseWriter, err error) {
	e, ok := err.(*wire.Error)
	if !ok {
		e = decide.Invalid("%v", err)
	}
	out := *e
	out.RequestID = decide.NewRequestID()
	b, _ := json.Marshal(wire.Envelope{Error: &out})
	w.Header().Set(wire.HeaderContentType, wire.ContentTypeJSON)
	w.WriteHeader(out.Code.Status())
	_, _ = w.Write(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set(wire.HeaderContentType, wire.ContentTypeJSON)
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return nil
}

func (a *API) counters(w http.ResponseWriter, r *http.Request, _ string) error {
	c, err := a.State.Counters(r.Context())
	if err != nil {
		return err
	}
	return writeJSON(w, 200, c)
}

func (a *API) events(w http.ResponseWriter, r *http.Request, _ string) error {
	since := int64(0)
	if s := r.URL.Query().Get("since"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return decide.Invalid("since=%s is not a non-negative event number", s)
		}
		since = n
	}
	evs, err := a.State.Events(r.Context(), since, 10000)
	if err != nil {
		return err
	}
	next := since
	if len(evs) > 0 {
		next = evs[len(evs)-1].Seq
	}
	return writeJSON(w, 200, map[string]any{"events": evs, "next": next})
}

func (a *API) faults(w http.ResponseWriter, r *http.Request, _ string) error {
	list, err := a.State.Faults()
	if err != nil {
		return err
	}
	return writeJSON(w, 200, map[string]any{"faults": list})
}

func (a *API) armFault(w http.ResponseWriter, r *http.Request, _ string) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return err
	}
	s, err := fault.ParseJSON(body)
	if err != nil {
		return decide.Invalid("nothing armed: %v", err)
	}
	if err := a.State.Armory.Arm(r.Context(), s); err != nil {
		return err
	}
	list, err := a.State.Faults()
	if err != nil {
		return err
	}
	return writeJSON(w, 201, map[string]any{"faults": list})
}

func (a *API) disarm(w http.ResponseWriter, r *http.Request, _ string) error {
	if err := a.State.Armory.DisarmRuntime(r.Context()); err != nil {
		return err
	}
	return a.faults(w, r, "")
}

func (a *API) complete(w http.ResponseWriter, r *http.Request, id string) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return err
	}
	var req struct {
		Error *string `json:"error"`
	}
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := wire.DecodeStrict(body, &req); err != nil {
			return decide.Invalid("the body is {} or {\"error\": \"<code>\"}: %v", err)
		}
	}
	var code wire.Code
	if req.Error != nil {
		code = wire.Code(*req.Error)
		if !code.Known() {
			return decide.Invalid("error %s is not one of the 26 error codes", *req.Error)
		}
	}
	doc, err := a.State.Complete(r.Context(), id, code)
	if err != nil {
		return err
	}
	w.Header().Set(wire.HeaderContentType, wire.ContentTypeJSON)
	w.WriteHeader(200)
	_, _ = w.Write(doc)
	return nil
}

func (a *API) reset(w http.ResponseWriter, r *http.Request, _ string) error {
	if err := a.State.Reset(r.Context()); err != nil {
		return err
	}
	return writeJSON(w, 200, map[string]any{"reset": true})
}

func (a *API) profile(w http.ResponseWriter, r *http.Request, _ string) error {
	w.Header().Set(wire.HeaderContentType, wire.ContentTypeJSON)
	w.WriteHeader(200)
	_, _ = w.Write(a.State.Profile().JSON())
	return nil
}

// refusals answers what the profile in force refuses compared with full, one
// clause each (what `go tool mage sim` prints and the dashboard's Host page shows).
func (a *API) refusals(w http.ResponseWriter, r *http.Request, _ string) error {
	list, err := a.State.Refusals()
	if err != nil {
		return err
	}
	if list == nil {
		list = []string{}
	}
	return writeJSON(w, 200, map[string]any{"profile": a.State.Profile().Name, "refuses": list})
}

// assets answers what one request pathname does on a Worker Version: GET
// /_sim/assets/{uid}?path=P, where P is the escaped pathname (with any query or
// fragment) as a query value — escaped once more, so /a%2Fb travels as
// path=%2Fa%252Fb (docs/protocol.md#static-assets).
func (a *API) assets(w http.ResponseWriter, r *http.Request, uid string) error {
	p := r.URL.Query()["path"] // none is len 0; another key was refused (ServeHTTP)
	if len(p) != 1 {
		return decide.Invalid("GET /_sim/assets/{uid} takes exactly one query key, path: the escaped request pathname, escaped again as a query value (/a%%2Fb is path=%%2Fa%%252Fb)")
	}
	ans, err := a.State.AssetLookup(r.Context(), uid, p[0])
	if err != nil {
		return err
	}
	return writeJSON(w, 200, ans)
}
