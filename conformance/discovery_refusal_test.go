package conformance

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
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

// TestARunThatReachesNoHostSaysWhatToCheck: an endpoint where nothing listens, or
// whose name does not resolve, is said as that, with what to check; the request
// that failed is named once (net/http's own quote of the method and URL is left
// out). Before: "GET /.well-known/...: Get \"http://.../.well-known/...\": dial tcp
// ...: connect: connection refused".
func TestARunThatReachesNoHostSaysWhatToCheck(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	_, err = Run(context.Background(), Config{Endpoint: closed, Primary: "t"})
	want := "reading what the host claims at " + closed + ": nothing listens there (GET /.well-known/takoform/v1beta1: dial tcp " +
		l.Addr().String() + ": connect: connection refused); start the host, or check --endpoint"
	if err == nil || err.Error() != want {
		t.Errorf("a run against a closed port: %v\nwant %s", err, want)
	}
	// a name that does not resolve, as the resolver says it (no lookup is made here)
	dns := &TransportError{What: "GET /.well-known/takoform/v1beta1", Err: &url.Error{Op: "Get", URL: "https://nope.invalid/.well-known/takoform/v1beta1",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nope.invalid", IsNotFound: true}}}}
	if got := unanswered(dns).Error(); got != "the host name nope.invalid does not resolve (GET /.well-known/takoform/v1beta1: dial tcp: lookup nope.invalid: no such host); check --endpoint" {
		t.Errorf("a name that does not resolve: %s", got)
	}
	// a lookup that failed otherwise, and no route to the host
	for err, want := range map[error]string{
		&net.DNSError{Err: "server misbehaving", Name: "odd.test"}: "the DNS lookup of odd.test failed (GET /x: lookup odd.test: server misbehaving); check --endpoint and the resolver",
		os.NewSyscallError("connect", syscall.EHOSTUNREACH):        "no route leads to the host (GET /x: connect: no route to host); check --endpoint and the network",
	} {
		if got := unanswered(&TransportError{What: "GET /x", Err: err}).Error(); got != want {
			t.Errorf("unanswered(%v) = %s\nwant %s", err, got, want)
		}
	}
	// anything else is left as it came
	other := &TransportError{What: "GET /x", Err: errors.New("EOF")}
	if got := unanswered(other); got != error(other) {
		t.Errorf("another failure became %v", got)
	}
}
