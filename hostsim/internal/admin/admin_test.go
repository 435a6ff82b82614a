package admin

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// A route's "*" captures one whole, non-empty path segment (what it captured
// counts only on a match).
func TestMatchPath(t *testing.T) {
	for _, c := range []struct {
		pattern, path, arg string
		ok                 bool
	}{
		{"/state", "/state", "", true},
		{"/state", "/state/", "", false},
		{"/operations/*/complete", "/operations/op-1/complete", "op-1", true},
		{"/operations/*/complete", "/operations//complete", "", false},
		{"/operations/*/complete", "/operations/a/b/complete", "", false},
		{"/operations/*/complete", "/operations/op-1/completx", "", false},
		{"/operations/*/complete", "/operations/op-1/complete/", "", false},
		{"/databases/*", "/databases/uid-7", "uid-7", true},
		{"/databases/*", "/databases/", "", false},
	} {
		if arg, ok := matchPath(c.pattern, c.path); ok != c.ok || (ok && arg != c.arg) {
			t.Errorf("matchPath(%q, %q) = %q, %v; want %q, %v", c.pattern, c.path, arg, ok, c.arg, c.ok)
		}
	}
}

func TestLoopback(t *testing.T) {
	for remote, want := range map[string]bool{
		"127.0.0.1:5000": true, "[::1]:5000": true, "127.8.9.10:1": true, "::1": true,
		"10.0.0.1:5000": false, "[2001:db8::1]:80": false, "": false, "not-an-address": false,
	} {
		if loopback(remote) != want {
			t.Errorf("loopback(%q) = %v, want %v", remote, !want, want)
		}
	}
}

// The admin API answers only on loopback; with a token, every route but the
// open ones needs it; an unknown route is not found; each refusal comes in
// the lane's error envelope with its code.
func TestServeHTTPRefusals(t *testing.T) {
	a := &API{Token: "admin-secret"} // no OpenAPI document, no state: the routes below never reach them
	for _, c := range []struct {
		name, method, path, remote, auth string
		status                           int
		code                             wire.Code
	}{
		{"not loopback", "GET", "/_sim/health", "192.0.2.1:4000", "", 403, wire.CodePermissionDenied},
		{"no token", "GET", "/_sim/state", "127.0.0.1:4000", "", 401, wire.CodeUnauthenticated},
		{"wrong token", "POST", "/_sim/reset", "127.0.0.1:4000", "Bearer nope", 401, wire.CodeUnauthenticated},
		{"unknown route without token", "GET", "/_sim/nope", "127.0.0.1:4000", "", 401, wire.CodeUnauthenticated},
		{"unknown route", "GET", "/_sim/nope", "127.0.0.1:4000", "Bearer admin-secret", 404, wire.CodeResourceNotFound},
		{"wrong method", "PUT", "/_sim/state", "127.0.0.1:4000", "Bearer admin-secret", 404, wire.CodeResourceNotFound},
		{"open route, nothing to serve", "GET", "/_sim/openapi.json", "127.0.0.1:4000", "", 404, wire.CodeResourceNotFound},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		req.RemoteAddr = c.remote
		if c.auth != "" {
			req.Header.Set("Authorization", c.auth)
		}
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		var env wire.Envelope
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error == nil {
			t.Errorf("%s: not an error envelope: %d %s", c.name, rec.Code, rec.Body)
			continue
		}
		if rec.Code != c.status || env.Error.Code != c.code || env.Error.RequestID == "" {
			t.Errorf("%s: %d %s; want %d %s with a request id", c.name, rec.Code, rec.Body, c.status, c.code)
		}
		if (c.status == http.StatusUnauthorized) != (rec.Header().Get("WWW-Authenticate") == "Bearer") {
			t.Errorf("%s: WWW-Authenticate %q", c.name, rec.Header().Get("WWW-Authenticate"))
		}
	}
}

// Routes lists the table in order, each route with its summary.
func TestRoutesListTheTable(t *testing.T) {
	rs := Routes()
	if len(rs) != len(table) || rs[0].Method != "GET" || rs[0].Path != "/health" || rs[0].Summary != table[0].summary || !rs[0].Open || rs[0].Query != nil {
		t.Fatalf("Routes: %+v", rs)
	}
	for _, r := range rs {
		if r.Summary == "" {
			t.Errorf("%s %s has no summary for the OpenAPI document", r.Method, r.Path)
		}
	}
}

// TestARefusedRouteSaysWhatTheHostTakes: a path answered with another method says
// which methods it has; a query key a route does not take is refused (not ignored:
// DELETE /_sim/faults?name=x disarmed every fault) naming the keys it takes.
func TestARefusedRouteSaysWhatTheHostTakes(t *testing.T) {
	a := &API{Token: "admin-secret"} // no state: every request below is refused before a handler
	for _, c := range []struct {
		method, path string
		status       int
		message      string
	}{
		{"PUT", "/_sim/faults", 404, "no admin route PUT /_sim/faults; /_sim/faults answers GET, POST, DELETE"},
		{"GET", "/_sim/operations/op-1/complete", 404, "no admin route GET /_sim/operations/op-1/complete; /_sim/operations/op-1/complete answers POST"},
		{"GET", "/_sim/nope", 404, "no admin route GET /_sim/nope"},
		{"DELETE", "/_sim/faults?name=store.fail", 400, `DELETE /_sim/faults takes no query parameter; remove "name" (GET /_sim/openapi.json describes every admin route)`},
		{"GET", "/_sim/events?after=3", 400, `GET /_sim/events takes only the query parameter since; remove "after" (GET /_sim/openapi.json describes every admin route)`},
		{"GET", "/_sim/events?since=3&limit=2", 400, `GET /_sim/events takes only the query parameter since; remove "limit" (GET /_sim/openapi.json describes every admin route)`},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		req.RemoteAddr = "127.0.0.1:4000"
		req.Header.Set("Authorization", "Bearer admin-secret")
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		var env wire.Envelope
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || env.Error == nil {
			t.Errorf("%s %s: not an error envelope: %d %s", c.method, c.path, rec.Code, rec.Body)
			continue
		}
		if rec.Code != c.status || env.Error.Message != c.message {
			t.Errorf("%s %s: %d %q\nwant %d %q", c.method, c.path, rec.Code, env.Error.Message, c.status, c.message)
		}
	}
}

// TestEachPathHasOneRoutePerMethod: a path one route answers (its "*" as a
// segment) is answered by no other route of the same method, which the routing
// (first match) and methodsOf (a method listed once) rely on.
func TestEachPathHasOneRoutePerMethod(t *testing.T) {
	for _, r := range table {
		sample := strings.Replace(r.path, "*", "x-1", 1)
		n := 0
		for _, o := range table {
			if _, ok := matchPath(o.path, sample); ok && o.method == r.method {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s %s is answered by %d routes of the table", r.method, sample, n)
		}
	}
	if got := methodsOf("/faults"); got != "; /_sim/faults answers GET, POST, DELETE" {
		t.Errorf("methodsOf(/faults) = %q", got)
	}
}
