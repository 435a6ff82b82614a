package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestAnOperationThatNeverEndsIsPolledTwentyTimes: both ways the runner follows
// an Operation (settleOp for the async checks, await for a 202 answered to any
// request) poll a host whose Operation never completes exactly 20 times, then
// fail saying so. One poll more or fewer is another rule than the one the
// message states (docs/guides/conformance.md#operations-followed).
func TestAnOperationThatNeverEndsIsPolledTwentyTimes(t *testing.T) {
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/operations/op-1") {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusTeapot)
			return
		}
		polls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "0")
		_, _ = w.Write([]byte(`{"apiVersion":"forms.takoform.com/v1beta1","kind":"Operation","id":"op-1","done":false}`))
	}))
	defer srv.Close()
	p := &Probe{P: NewClient(srv.URL, "primary", "t"), Space: "s"}
	ctx := context.Background()

	_, _, err := p.settleOp(ctx, p.P, "op-1")
	var f *Failure
	if !errors.As(err, &f) || !strings.Contains(f.Msg, "still pending after 20 polls") {
		t.Errorf("settleOp on an Operation that never ends: %v; want a failure saying it is still pending after 20 polls", err)
	}
	if n := polls.Swap(0); n != 20 {
		t.Errorf("settleOp polled %d times; want 20", n)
	}

	accepted := &Resp{Status: http.StatusAccepted, Body: []byte(`{"operation":{"apiVersion":"forms.takoform.com/v1beta1","kind":"Operation","id":"op-1","done":false}}`)}
	_, err = p.await(ctx, p.P, accepted)
	if !errors.As(err, &f) || !strings.Contains(f.Msg, "still pending after 20 polls") {
		t.Errorf("await on an Operation that never ends: %v; want a failure saying it is still pending after 20 polls", err)
	}
	if n := polls.Load(); n != 20 {
		t.Errorf("await polled %d times; want 20", n)
	}
}
