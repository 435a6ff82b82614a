package hostsimtest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"testing"
)

// InFront serves, on a loopback port closed with t, a host in front of the simulator
// that forwards every request and hands each answer's body to edit before its client
// sees it (the request, the answer's status and its body, with the simulator's origin
// already written as the front's own, so discovery sends the client back through the
// front). It returns the front's origin. A test bends the simulator's answers with it
// to show what a client does with a host that breaks a rule.
func (s *Sim) InFront(t testing.TB, edit func(r *http.Request, status int, body []byte) ([]byte, error)) string {
	t.Helper()
	target, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	var self string
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		body = bytes.ReplaceAll(body, []byte(s.URL), []byte(self))
		if body, err = edit(resp.Request, resp.StatusCode, body); err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	self = srv.URL
	return self
}
