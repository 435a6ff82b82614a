package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const opHead = `"apiVersion":"forms.takoform.com/v1beta1","kind":"Operation","id":"op-1"`

// TestAnOperationIsDoneWithExactlyOneOfResultAndError: a done Operation carries
// exactly one of result and error, a pending one neither; any other document is
// the host's failure, whichever way the runner reads it (docs/guides/conformance.md#operations-followed).
func TestAnOperationIsDoneWithExactlyOneOfResultAndError(t *testing.T) {
	t.Parallel()
	result := `"result":{"resource":{}}`
	failed := `"error":{"code":"internal_error","message":"m","retryable":true}`
	cases := []struct {
		name, doc string
		ok        bool
	}{
		{"pending", `{` + opHead + `,"done":false}`, true},
		{"done with a result", `{` + opHead + `,"done":true,` + result + `}`, true},
		{"done with an error", `{` + opHead + `,"done":true,` + failed + `}`, true},
		{"done with neither", `{` + opHead + `,"done":true}`, false},
		{"pending with a result", `{` + opHead + `,"done":false,` + result + `}`, false},
		{"pending with an error", `{` + opHead + `,"done":false,` + failed + `}`, false},
		{"done with both", `{` + opHead + `,"done":true,` + result + `,` + failed + `}`, false},
	}
	r := &Resp{Req: Req{Method: http.MethodGet, Target: API + "/operations/op-1"}, Status: http.StatusOK}
	for _, c := range cases {
		op, err := decodeOperation(r, []byte(c.doc))
		if c.ok {
			if err != nil || op == nil || op.ID != "op-1" {
				t.Errorf("%s: decodeOperation = %v, %v; want the Operation", c.name, op, err)
			}
			continue
		}
		var f *Failure
		if !errors.As(err, &f) || !strings.Contains(f.Msg, "exactly one of them belongs to a done operation") {
			t.Errorf("%s: decodeOperation = %v; want a failure naming the done rule", c.name, err)
		}
	}
}

// TestA202IsExactlyAnOperationEnvelope: a 202 answer is {"operation": …} and
// nothing else; a member beside it fails the answer, not the Operation.
func TestA202IsExactlyAnOperationEnvelope(t *testing.T) {
	t.Parallel()
	p := &Probe{P: NewClient("http://127.0.0.1:1", "primary", "t"), Space: "s"}
	r := &Resp{Req: Req{Method: http.MethodPut, Target: API + "/resources/x"}, Status: http.StatusAccepted,
		Body: []byte(`{"operation":{` + opHead + `,"done":true,"result":{"resource":{}}},"extra":true}`)}
	_, err := p.await(context.Background(), p.P, r)
	var f *Failure
	if !errors.As(err, &f) || !strings.Contains(f.Msg, `202 answer is not {"operation": …}`) {
		t.Errorf("await of a 202 with a member beside the operation: %v; want a failure naming the envelope", err)
	}
}

// pollHost answers each poll of op-1 with the next of answers (the last one
// again once they run out), counting the polls.
func pollHost(t *testing.T, answers ...func(w http.ResponseWriter)) (*Probe, *atomic.Int32) {
	t.Helper()
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.HasSuffix(r.URL.Path, "/operations/op-1") {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusTeapot)
			return
		}
		n := int(polls.Add(1))
		w.Header().Set("Content-Type", "application/json")
		answers[min(n, len(answers))-1](w)
	}))
	t.Cleanup(srv.Close)
	return &Probe{P: NewClient(srv.URL, "primary", "t"), Space: "s"}, &polls
}

func pending(retryAfter string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		_, _ = w.Write([]byte(`{` + opHead + `,"done":false}`))
	}
}

func doneOp(w http.ResponseWriter) {
	_, _ = w.Write([]byte(`{` + opHead + `,"done":true,"result":{"resource":{}}}`))
}

// TestAPollIsJudgedBeforeItsOperation: a poll answered other than 200 fails on
// its status, and a pending Operation's poll without Retry-After fails naming
// the header, though its document is a valid pending Operation.
func TestAPollIsJudgedBeforeItsOperation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var f *Failure

	p, _ := pollHost(t, func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusCreated)
		doneOp(w)
	})
	if _, _, err := p.poll(ctx, p.P, "op-1"); !errors.As(err, &f) || !strings.Contains(f.Msg, "expected 200, got 201") {
		t.Errorf("a poll answered 201 with a done Operation: %v; want a failure expecting 200", err)
	}

	p, _ = pollHost(t, pending(""))
	if _, _, err := p.poll(ctx, p.P, "op-1"); !errors.As(err, &f) || !strings.Contains(f.Msg, "pending Operation poll carries no Retry-After") {
		t.Errorf("a pending poll without Retry-After: %v; want a failure naming the header", err)
	}
}

// TestAFarRetryAfterIsWaitedAtMostTwoSeconds: the runner pauses as a pending
// poll's Retry-After says, but at most 2 s (docs/guides/conformance.md#operations-followed):
// a host asking for an hour does not hold the run for an hour.
func TestAFarRetryAfterIsWaitedAtMostTwoSeconds(t *testing.T) {
	t.Parallel()
	p, polls := pollHost(t, pending("3600"), doneOp)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	accepted := &Resp{Status: http.StatusAccepted, Body: []byte(`{"operation":{` + opHead + `,"done":false}}`)}
	start := time.Now()
	op, err := p.await(ctx, p.P, accepted)
	if err != nil || op == nil || !op.Done {
		t.Fatalf("await after a poll asking for an hour: %v, %v; want the done Operation of the second poll", op, err)
	}
	if took := time.Since(start); took < 2*time.Second || took > 10*time.Second {
		t.Errorf("await took %v with Retry-After: 3600; want the 2 s cap", took)
	}
	if n := polls.Load(); n != 2 {
		t.Errorf("await polled %d times; want 2", n)
	}
}

// TestAPollWaitsAsItsRetryAfterSaysUpToTwoSeconds: the pause itself, without waiting for
// it: what the host asks, capped at 2 s; a value that is no whole number asks for none.
func TestAPollWaitsAsItsRetryAfterSaysUpToTwoSeconds(t *testing.T) {
	for _, c := range []struct {
		header string
		want   time.Duration
	}{
		{"", 0}, {"0", 0}, {"1", time.Second}, {"2", 2 * time.Second},
		{"3", 2 * time.Second}, {"3600", 2 * time.Second}, {"soon", 0}, {"1.5", 0},
	} {
		if got := pollWait(c.header); got != c.want {
			t.Errorf("pollWait(%q) = %v, want %v", c.header, got, c.want)
		}
	}
}
