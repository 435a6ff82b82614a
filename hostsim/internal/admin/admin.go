// Package admin serves hostsim's /_sim/ API (hostsim.md §7): state, journal,
// counters, faults, operation completion, reset and the profile in force.
package admin

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/lane"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// Prefix is the admin API's path prefix.
const Prefix = "/_sim"

// API is the admin handler.
type API struct {
	Lane  *lane.Server
	Token string // when set, the bearer the admin API requires
}

type handler func(a *API, w http.ResponseWriter, r *http.Request, arg string) error

type route struct {
	method, path string // path below /_sim; a trailing "/*" captures one segment
	h            handler
}

var table = []route{
	{"GET", "/state", (*API).state},
	{"GET", "/events", (*API).events},
	{"GET", "/counters", (*API).counters},
	{"GET", "/faults", (*API).faults},
	{"POST", "/faults", (*API).armFault},
	{"DELETE", "/faults", (*API).disarm},
	{"POST", "/operations/*/complete", (*API).complete},
	{"POST", "/reset", (*API).reset},
	{"GET", "/profile", (*API).profile},
}

// ServeHTTP routes an admin request.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rid := lane.NewRequestID()
	if !loopback(r.RemoteAddr) {
		writeErr(w, rid, lane.Refusal(wire.CodePermissionDenied, "the hostsim admin API answers only on loopback"))
		return
	}
	if a.Token != "" && r.Header.Get("Authorization") != "Bearer "+a.Token {
		w.Header().Set("WWW-Authenticate", "Bearer")
		writeErr(w, rid, lane.Refusal(wire.CodeUnauthenticated, "the hostsim admin API needs Authorization: Bearer <admin token>"))
		return
	}
	path := strings.TrimPrefix(r.URL.Path, Prefix)
	for _, rt := range table {
		arg, ok := matchPath(rt.path, path)
		if !ok || rt.method != r.Method {
			continue
		}
		if err := rt.h(a, w, r, arg); err != nil {
			writeErr(w, rid, err)
		}
		return
	}
	writeErr(w, rid, lane.Refusal(wire.CodeResourceNotFound, "no admin route "+r.Method+" "+r.URL.Path))
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

func writeErr(w http.ResponseWriter, rid string, err error) {
	status, body := lane.AdminError(err, rid)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return nil
}

func (a *API) st() *store.Store { return a.Lane.Store }

func (a *API) counters(w http.ResponseWriter, r *http.Request, _ string) error {
	a.Lane.Journal.Flush()
	c, err := store.CounterValues(a.st().DB())
	if err != nil {
		return err
	}
	dispatch := map[string]int64{}
	for k, v := range c {
		if id, ok := strings.CutPrefix(k, "dispatch:"); ok {
			dispatch[id] = v
		}
	}
	return writeJSON(w, 200, map[string]any{"requests": c["requests"], "mutations": c["mutations"],
		"uploads": c["uploads"], "supportReads": c["supportReads"], "dispatch": dispatch})
}

func (a *API) events(w http.ResponseWriter, r *http.Request, _ string) error {
	a.Lane.Journal.Flush()
	since := int64(0)
	if s := r.URL.Query().Get("since"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			return lane.Refusal(wire.CodeInvalidArgument, "since="+s+" is not a non-negative event number")
		}
		since = n
	}
	evs, err := store.EventsSince(a.st().DB(), since, 10000)
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
	list, err := a.Lane.Armory.List(a.st().DB())
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
		return lane.Refusal(wire.CodeInvalidArgument, "nothing armed: "+err.Error())
	}
	if err := a.Lane.Armory.Arm(r.Context(), s); err != nil {
		return err
	}
	list, err := a.Lane.Armory.List(a.st().DB())
	if err != nil {
		return err
	}
	return writeJSON(w, 201, map[string]any{"faults": list})
}

func (a *API) disarm(w http.ResponseWriter, r *http.Request, _ string) error {
	if err := a.Lane.Armory.DisarmRuntime(r.Context()); err != nil {
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
			return lane.Refusal(wire.CodeInvalidArgument, "the body is {} or {\"error\": \"<code>\"}: "+err.Error())
		}
	}
	var code wire.Code
	if req.Error != nil {
		code = wire.Code(*req.Error)
		if !code.Known() {
			return lane.Refusal(wire.CodeInvalidArgument, "error "+*req.Error+" is not one of the 26 error codes")
		}
	}
	doc, err := a.Lane.CompleteOperation(r.Context(), id, code)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	_, _ = w.Write(doc)
	return nil
}

func (a *API) reset(w http.ResponseWriter, r *http.Request, _ string) error {
	a.Lane.Journal.Flush()
	if err := a.st().Reset(context.Background()); err != nil {
		return err
	}
	if err := a.Lane.Armory.RearmProfile(r.Context()); err != nil {
		return err
	}
	return writeJSON(w, 200, map[string]any{"reset": true})
}

func (a *API) profile(w http.ResponseWriter, r *http.Request, _ string) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(200)
	_, _ = w.Write(a.Lane.Host.P.JSON())
	return nil
}
