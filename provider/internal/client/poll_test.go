package client

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
)

// operationHost is a discovering host whose reads of operation op_1 answer
// serve(w, r, n), n counting them from 1; polls wait a millisecond between reads.
func operationHost(t *testing.T, serve func(w http.ResponseWriter, r *http.Request, n int32)) (*Client, *atomic.Int32) {
	t.Helper()
	var reads atomic.Int32
	c := discoveringHostServing(t, "/operations/op_1", func(w http.ResponseWriter, r *http.Request) { serve(w, r, reads.Add(1)) })
	c.backoff = func(int) time.Duration { return time.Millisecond }
	return c, &reads
}

const (
	opPendingOn = `{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":false,"target":{"uid":"uid-7"}}`
	opPending   = `{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":false}`
	opDone      = `{"apiVersion":"operations.takoform.com/v1alpha1","kind":"Operation","id":"op_1","done":true,"result":{"resource":{}}}`
)

// TestPollFollowsAnOperationToItsEnd: Poll reads the operation until it is done
// and returns its last answer; an answer that no longer names the incarnation
// keeps the one an earlier answer named (the provider records it in state).
func TestPollFollowsAnOperationToItsEnd(t *testing.T) {
	t.Parallel()
	c, reads := operationHost(t, func(w http.ResponseWriter, _ *http.Request, n int32) {
		switch n {
		case 1:
			w.Write([]byte(opPendingOn))
		case 2:
			w.Header().Set("Retry-After", "0")
			w.Write([]byte(opPending))
		default:
			w.Write([]byte(opDone))
		}
	})
	op, err := c.Poll(context.Background(), &Operation{ID: "op_1"})
	if err != nil || op == nil || !op.Done || reads.Load() != 3 {
		t.Fatalf("Poll = %+v, %v after %d reads; want the done operation after 3", op, err, reads.Load())
	}
	if op.HostUID() != "uid-7" {
		t.Errorf("the done operation's incarnation is %q, want uid-7, named by the first answer and by none after", op.HostUID())
	}
}

// TestPollEndsWithItsContext: a context that ends while an operation read is on
// its way ends the poll with the context's error (not the transport's, which
// would read as the host failing), and Poll returns the last operation it saw.
// The host ends the context itself when the second read arrives, so the read is
// in flight whatever the machine's pace.
func TestPollEndsWithItsContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, reads := operationHost(t, func(w http.ResponseWriter, r *http.Request, n int32) {
		if n == 1 {
			w.Write([]byte(opPendingOn))
			return
		}
		cancel()             // the poll's context ends while this read is on its way
		<-r.Context().Done() // and the read never comes back
	})
	op, err := c.Poll(ctx, &Operation{ID: "op_1"})
	var te *TransportError
	if !errors.Is(err, context.Canceled) || errors.As(err, &te) || reads.Load() != 2 {
		t.Fatalf("Poll = %v after %d reads; want the context's own error, after 2", err, reads.Load())
	}
	if op == nil || op.Done || op.HostUID() != "uid-7" {
		t.Errorf("Poll returned %+v; want the last operation it read (pending, on uid-7)", op)
	}
}

// TestPollStopsAtAFailedRead: an operation read the host fails ends the poll
// with that failure, and Poll returns the operation it started from.
func TestPollStopsAtAFailedRead(t *testing.T) {
	t.Parallel()
	c, reads := operationHost(t, func(w http.ResponseWriter, _ *http.Request, _ int32) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"code":"operation_not_found","message":"no operation op_1","requestId":"r","retryable":false}}`))
	})
	start := &Operation{ID: "op_1"}
	op, err := c.Poll(context.Background(), start)
	if !IsCode(err, wire.CodeOperationNotFound) || op != start || reads.Load() != 1 {
		t.Errorf("Poll = %+v, %v after %d reads; want operation_not_found after one read, and the operation it started from", op, err, reads.Load())
	}
}
