package hostsim_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/takokit/takokit/hostsim"
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
