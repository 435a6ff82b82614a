package idempotency

import (
	"net/http"
	"testing"
	"time"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/fault"
	"github.com/takokit/takokit/hostsim/internal/store"
)

func TestFingerprint(t *testing.T) {
	h := http.Header{}
	base := Fingerprint("PUT", "/x", h, []byte(`{}`))
	probe := http.Header{"Takoform-Conformance-Probe": {"async"}}
	if Fingerprint("PUT", "/x", probe, []byte(`{}`)) != base {
		t.Fatal("the probe header changed the fingerprint")
	}
	for name, other := range map[string]string{
		"method": Fingerprint("POST", "/x", h, []byte(`{}`)),
		"target": Fingerprint("PUT", "/x?a", h, []byte(`{}`)),
		"body":   Fingerprint("PUT", "/x", h, []byte(`{ }`)),
		"fence":  Fingerprint("PUT", "/x", http.Header{"Takoform-Expected-Generation": {"1"}}, []byte(`{}`)),
		// The three precondition headers belong to it whether or not the
		// route reads them (docs/protocol.md#headers).
		"If-Match":      Fingerprint("PUT", "/x", http.Header{"If-Match": {`"1"`}}, []byte(`{}`)),
		"If-None-Match": Fingerprint("PUT", "/x", http.Header{"If-None-Match": {"*"}}, []byte(`{}`)),
	} {
		if other == base {
			t.Errorf("a different %s has the same fingerprint", name)
		}
	}
	// A changed value, not only a present one, is another request.
	ifMatch := func(rev string) string {
		return Fingerprint("PUT", "/x", http.Header{"If-Match": {rev}, "Takoform-Expected-Generation": {"1"}}, []byte(`{}`))
	}
	if ifMatch(`"1"`) == ifMatch(`"2"`) {
		t.Error("If-Match \"1\" and \"2\" have the same fingerprint")
	}
	// Each header is its own part: a value cannot move from one to another.
	if Fingerprint("PUT", "/x", http.Header{"If-Match": {`"1"`}}, nil) ==
		Fingerprint("PUT", "/x", http.Header{"Takoform-Expected-Generation": {`"1"`}}, nil) {
		t.Error("the same value under If-Match and Takoform-Expected-Generation has the same fingerprint")
	}
}

func armed(names ...string) *fault.Set {
	var specs []fault.Spec
	for _, n := range names {
		specs = append(specs, fault.Spec{Fault: n})
	}
	return fault.Fixed(specs...)
}

func TestJudge(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	rec := func(age time.Duration, bound string) *store.Record {
		return &store.Record{Fingerprint: "fp", CreatedAt: now.Add(-age).Unix(), BoundUID: bound}
	}
	for _, tc := range []struct {
		name  string
		rec   *store.Record
		fp    string
		live  bool
		fs    []string
		want  verdict
		taken bool // refused: the key was used for another request
	}{
		{name: "no record", want: run},
		{name: "same request", rec: rec(time.Minute, ""), fp: "fp", want: replay},
		{name: "another request under the key", rec: rec(time.Minute, ""), fp: "other", taken: true},
		{name: "expired", rec: rec(25*time.Hour, ""), fp: "other", want: retire},
		{name: "exactly as old as its life still replays", rec: rec(24*time.Hour, ""), fp: "fp", want: replay},
		{name: "bound incarnation alive", rec: rec(time.Minute, "u-1"), fp: "fp", live: true, want: replay},
		{name: "bound incarnation gone", rec: rec(time.Minute, "u-1"), fp: "fp", want: retire},
		{name: "gone, idempotency.no-retire", rec: rec(time.Minute, "u-1"), fp: "fp", fs: []string{"idempotency.no-retire"}, want: replay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := judge(tc.rec, Key{Key: "k", Fingerprint: tc.fp}, now, 24*time.Hour, tc.live, armed(tc.fs...))
			if tc.taken {
				if err == nil || err.Code != wire.CodeInvalidArgument {
					t.Fatalf("got %v, %v; want invalid_argument", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestOwner(t *testing.T) {
	for _, tc := range []struct {
		fs   []string
		t, p string
	}{
		{nil, "tenant-a", "alice"},
		{[]string{"idempotency.tenant-wide"}, "tenant-a", ""},
		{[]string{"idempotency.host-wide"}, "", ""},
	} {
		if gt, gp := Owner("tenant-a", "alice", armed(tc.fs...)); gt != tc.t || gp != tc.p {
			t.Errorf("faults %v: owner (%q, %q), want (%q, %q)", tc.fs, gt, gp, tc.t, tc.p)
		}
	}
}
