package conformance

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestARunSaysWhetherTheTokenOrTheLaneFailed: a run that finds no lane says
// why. A host refusing the token on every lane's discovery path is a token to
// check, not a lane the runner does not know; a host answering no known lane
// is the other way round.
func TestARunSaysWhetherTheTokenOrTheLaneFailed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, body string
		status     int
		want, not  string
	}{
		{"every discovery path refuses the token", `{"error":{"code":"unauthenticated","message":"the bearer token names no principal of this host","retryable":false,"requestId":"r-1"}}`,
			http.StatusUnauthorized, "the host refused the primary token on the discovery path of every known lane", "speaks none"},
		{"no discovery path is there", `{"error":{"code":"resource_not_found","message":"no such route","retryable":false,"requestId":"r-1"}}`,
			http.StatusNotFound, "the host speaks none of the known lanes", "refused the primary token"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(c.status)
			_, _ = io.WriteString(w, c.body)
		}))
		_, err := Run(context.Background(), Config{Endpoint: srv.URL, Primary: "wrong"})
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) {
			t.Errorf("%s: the run's error is %v; want it to say %q", c.name, err, c.want)
		}
	}
}
