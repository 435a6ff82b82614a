package artifactroute

import (
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/artifact"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/store"
)

// fakeCall is a Call without a store: Write runs fn once (q is nil) and keeps
// what fn recorded only when fn succeeded, as a rolled-back transaction would.
type fakeCall struct {
	body     []byte
	recorded *Answer // what an earlier identical request recorded
	replayE  *wire.Error
	pending  *Answer // recorded inside the running transaction
	writes   int
	sent     []Answer
}

func (f *fakeCall) Caller() artifact.Caller {
	return artifact.Caller{Tenant: "tenant-a", Principal: "alice"}
}
func (f *fakeCall) Param(string) string           { return "" }
func (f *fakeCall) Body() []byte                  { return f.body }
func (f *fakeCall) Stream() io.Reader             { return http.NoBody }
func (f *fakeCall) BundleLimits() artifact.Limits { return artifact.Portable }

func (f *fakeCall) RequireEmptyBody() *wire.Error {
	if len(f.body) > 0 {
		return decide.Invalid("route takes an empty body")
	}
	return nil
}

func (f *fakeCall) Read(fn func(q store.Q) error) *wire.Error { return f.Write(fn) }

func (f *fakeCall) Write(fn func(q store.Q) error) *wire.Error {
	f.writes++
	f.pending = nil
	if err := fn(nil); err != nil {
		f.pending = nil
		if e, ok := err.(*wire.Error); ok {
			return e
		}
		return decide.Internal(err)
	}
	if f.pending != nil {
		f.recorded = f.pending
	}
	return nil
}

func (f *fakeCall) Replay(store.Q) (*Answer, *wire.Error) { return f.recorded, f.replayE }

func (f *fakeCall) Record(_ store.Q, a Answer) error {
	f.pending = &a
	return nil
}

func (f *fakeCall) Send(status int, body []byte, etag string) {
	f.sent = append(f.sent, Answer{Status: status, Body: body, ETag: etag})
}

// A keyed step answers and records once; the same request again is the
// recorded answer byte for byte, and the step does not run again.
func TestKeyedRecordsThenReplays(t *testing.T) {
	f := &fakeCall{}
	runs := 0
	step := func(store.Q) (Answer, error) {
		runs++
		return Answer{Status: http.StatusCreated, Body: []byte(`{"n":1}`)}, nil
	}
	for range 2 {
		if e := keyed(f, step); e != nil {
			t.Fatalf("keyed: %v", e)
		}
	}
	if runs != 1 {
		t.Fatalf("the step ran %d times, want once (the second request replays)", runs)
	}
	if len(f.sent) != 2 || f.sent[0].Status != 201 || string(f.sent[1].Body) != `{"n":1}` || f.sent[1].Status != 201 {
		t.Fatalf("sent %+v, want the 201 twice", f.sent)
	}
}

// A refused step records and sends nothing, and a refused replay lookup runs
// no step.
func TestKeyedRefusals(t *testing.T) {
	f := &fakeCall{}
	e := keyed(f, func(store.Q) (Answer, error) { return Answer{Status: 201}, errors.New("disk gone") })
	if e == nil || e.Code != wire.CodeInternalError {
		t.Fatalf("a failed step answered %v, want internal_error", e)
	}
	if f.recorded != nil || len(f.sent) != 0 {
		t.Fatalf("a failed step recorded %+v and sent %+v, want nothing", f.recorded, f.sent)
	}
	f.replayE = decide.Refuse(wire.CodeInvalidArgument, "Idempotency-Key reused with another request")
	e = keyed(f, func(store.Q) (Answer, error) {
		t.Fatal("the step ran after a refused replay lookup")
		return Answer{}, nil
	})
	if e != f.replayE {
		t.Fatalf("a refused replay lookup answered %v, want its refusal", e)
	}
}

// commit and abandon refuse a body before any transaction.
func TestEmptyBodyRoutesRefuseABodyFirst(t *testing.T) {
	for name, h := range map[string]func(Call) *wire.Error{"commit": Commit, "abandon": Abandon} {
		f := &fakeCall{body: []byte("{}")}
		if e := h(f); e == nil || e.Code != wire.CodeInvalidArgument || f.writes != 0 {
			t.Fatalf("%s with a body answered %v after %d writes, want invalid_argument before any", name, e, f.writes)
		}
	}
}
