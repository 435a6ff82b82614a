package hostsim_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim"
	"github.com/takokit/takokit/hostsim/hostsimtest"
)

func TestAdminAnswersOnlyLoopbackAndItsToken(t *testing.T) {
	h, err := hostsim.New(hostsim.Config{Catalog: testCatalog(t), AdminToken: "admin-secret"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	serve := func(remote, auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/_sim/counters", nil)
		req.RemoteAddr = remote
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.Handler().ServeHTTP(rec, req)
		return rec
	}
	if rec := serve("192.0.2.7:4000", "Bearer admin-secret"); rec.Code != http.StatusForbidden {
		t.Fatalf("non-loopback admin request: HTTP %d %s", rec.Code, rec.Body)
	}
	if rec := serve("127.0.0.1:4000", ""); rec.Code != http.StatusUnauthorized {
		t.Fatalf("admin request without the token: HTTP %d", rec.Code)
	}
	if rec := serve("127.0.0.1:4000", "Bearer sim-primary"); rec.Code != http.StatusUnauthorized {
		t.Fatalf("admin request with a lane token: HTTP %d", rec.Code)
	}
	if rec := serve("[::1]:4000", "Bearer admin-secret"); rec.Code != http.StatusOK {
		t.Fatalf("loopback admin request with the token: HTTP %d %s", rec.Code, rec.Body)
	}
}

// GET /_sim/health says the host is up without any token, and only on
// loopback like the rest of /_sim. It never fires a fault and never counts as
// traffic: armed request faults stay unfired and the request counter and the
// journal do not move.
func TestHealthAnswersWithoutTokensOnLoopbackOnly(t *testing.T) {
	cat := testCatalog(t)
	sim := hostsimtest.Start(t, hostsim.Config{Catalog: cat, Profile: "kv-only", AdminToken: "admin-secret", Version: "1.2.3-test"})
	arm(t, sim, "error=backend_unavailable")
	arm(t, sim, "panic")
	before, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, auth string) (int, []byte) {
		req, _ := http.NewRequest("GET", sim.URL+path, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	time.Sleep(1100 * time.Millisecond) // uptime counts whole seconds
	for _, auth := range []string{"", "Bearer wrong", "Bearer sim-primary", "Bearer admin-secret"} {
		code, body := get("/_sim/health", auth)
		var h struct { // exactly these members
			Status        string `json:"status,required"`
			Lane          string `json:"lane,required"`
			Profile       string `json:"profile,required"`
			Version       string `json:"version,required"`
			UptimeSeconds int64  `json:"uptimeSeconds,required"`
			GoMaxProcs    int    `json:"goMaxProcs,required"`
			GCPercent     int    `json:"gcPercent,required"`
		}
		if code != 200 {
			t.Fatalf("GET /_sim/health with %q: HTTP %d %s", auth, code, body)
		}
		if err := wire.DecodeStrict(body, &h); err != nil {
			t.Fatalf("GET /_sim/health with %q: %v: %s", auth, err, body)
		}
		if h.Status != "ok" || h.Lane != sim.Host.Lane().String() || h.Lane != wire.DefaultLane.APIVersion || h.Profile != "kv-only" ||
			h.Version != "1.2.3-test" || h.UptimeSeconds < 1 || h.GoMaxProcs != runtime.GOMAXPROCS(0) ||
			h.GCPercent != gcPercentNow() {
			t.Fatalf("GET /_sim/health with %q: %s", auth, body)
		}
	}
	after, err := sim.Admin.Counters()
	if err != nil {
		t.Fatal(err)
	}
	if after.Requests != before.Requests || after.Fired["error=backend_unavailable"] != 0 || after.Fired["panic"] != 0 {
		t.Fatalf("health counted as traffic or fired a fault: before %+v, after %+v", before, after)
	}
	if evs, err := sim.Admin.Events(0); err != nil || strings.Contains(string(evs), "health") {
		t.Fatalf("health entered the journal: %v %s", err, evs)
	}
	// the rest of /_sim still needs the token, and the lane's /healthz stays
	// the lane's: unauthenticated (docs/decisions.md)
	if code, body := get("/_sim/counters", ""); code != 401 {
		t.Fatalf("/_sim/counters without the token: HTTP %d %s", code, body)
	}
	if code, _ := get("/healthz", ""); code != 401 {
		t.Fatalf("/healthz without a bearer: HTTP %d, want the lane's 401", code)
	}

	h, err := hostsim.New(hostsim.Config{Catalog: cat})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for remote, want := range map[string]int{"192.0.2.7:4000": 403, "[2001:db8::1]:4000": 403, "127.0.0.1:4000": 200, "[::1]:4000": 200} {
		req := httptest.NewRequest("GET", "/_sim/health", nil)
		req.RemoteAddr = remote
		rec := httptest.NewRecorder()
		h.Handler().ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("GET /_sim/health from %s: HTTP %d %s, want %d", remote, rec.Code, rec.Body, want)
		}
	}
}

// gcPercentNow is this process's collector target (an embedded host serves in it).
func gcPercentNow() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}
