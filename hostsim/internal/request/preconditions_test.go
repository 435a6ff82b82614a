package request

import (
	"net/http"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
	"github.com/takokit/takokit/hostsim/internal/decide"
	"github.com/takokit/takokit/hostsim/internal/fault"
)

func TestParsePreconditions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		headers map[string][]string
		want    decide.Preconditions
		refused string // message fragment; "" = accepted
	}{
		{name: "none", want: decide.Preconditions{}},
		{name: "create intent", headers: map[string][]string{"If-None-Match": {"*"}}, want: decide.Preconditions{IfNoneMatch: true}},
		{name: "fence and revision", headers: map[string][]string{"Takoform-Expected-Generation": {"7"}, "If-Match": {`"12"`}},
			want: decide.Preconditions{Fence: 7, IfMatch: 12}},
		{name: "If-None-Match other than *", headers: map[string][]string{"If-None-Match": {`"1"`}}, refused: "exactly"},
		{name: "two If-None-Match", headers: map[string][]string{"If-None-Match": {"*", "*"}}, refused: "exactly"},
		{name: "leading zero fence", headers: map[string][]string{"Takoform-Expected-Generation": {"01"}}, refused: "canonical decimal"},
		{name: "zero fence", headers: map[string][]string{"Takoform-Expected-Generation": {"0"}}, refused: "canonical decimal"},
		{name: "signed fence", headers: map[string][]string{"Takoform-Expected-Generation": {"+1"}}, refused: "canonical decimal"},
		{name: "fence overflow", headers: map[string][]string{"Takoform-Expected-Generation": {"9223372036854775808"}}, refused: "canonical decimal"},
		{name: "two fences", headers: map[string][]string{"Takoform-Expected-Generation": {"1", "1"}}, refused: "canonical decimal"},
		{name: "weak If-Match", headers: map[string][]string{"If-Match": {`W/"1"`}}, refused: "strong entity tag"},
		{name: "unquoted If-Match", headers: map[string][]string{"If-Match": {"1"}}, refused: "strong entity tag"},
		{name: "If-Match *", headers: map[string][]string{"If-Match": {"*"}}, refused: "strong entity tag"},
		{name: "If-Match of revision 1 (the shortest tag)", headers: map[string][]string{"If-Match": {`"1"`}}, want: decide.Preconditions{IfMatch: 1}},
		{name: "If-Match without its opening quote", headers: map[string][]string{"If-Match": {`x7"`}}, refused: "strong entity tag"},
		{name: "If-Match without its closing quote", headers: map[string][]string{"If-Match": {`"12x`}}, refused: "strong entity tag"},
		{name: "If-Match of two quotes", headers: map[string][]string{"If-Match": {`""`}}, refused: "strong entity tag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, vs := range tc.headers {
				for _, v := range vs {
					h.Add(k, v)
				}
			}
			got, err := ParsePreconditions(h)
			switch {
			case tc.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.refused != "" && (err == nil || err.Code != wire.CodeInvalidArgument || !strings.Contains(err.Message, tc.refused)):
				t.Fatalf("got %v, want invalid_argument mentioning %q", err, tc.refused)
			case tc.refused == "" && got != tc.want:
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCheckIdempotencyKey(t *testing.T) {
	for _, tc := range []struct {
		name string
		vals []string
		fs   *fault.Set
		ok   bool
	}{
		{"one key", []string{"k-1"}, nil, true},
		{"255 characters", []string{strings.Repeat("k", 255)}, nil, true},
		{"one character", []string{"k"}, nil, true},
		{"the first and last visible ASCII", []string{"!~"}, nil, true},
		{"DEL", []string{"k\x7f"}, nil, false},
		{"missing", nil, nil, false},
		{"missing under headers.lenient", nil, fault.Fixed(fault.Spec{Fault: "headers.lenient"}), true},
		// headers.lenient forgives a missing key only, not a bad one.
		{"two keys under headers.lenient", []string{"a", "b"}, fault.Fixed(fault.Spec{Fault: "headers.lenient"}), false},
		{"a space under headers.lenient", []string{"k 1"}, fault.Fixed(fault.Spec{Fault: "headers.lenient"}), false},
		{"two keys", []string{"a", "b"}, nil, false},
		{"empty", []string{""}, nil, false},
		{"256 characters", []string{strings.Repeat("k", 256)}, nil, false},
		{"a space", []string{"k 1"}, nil, false},
		{"non-ASCII", []string{"kä"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckIdempotencyKey(tc.vals, "apply", tc.fs)
			if (err == nil) != tc.ok {
				t.Fatalf("CheckIdempotencyKey(%q) = %v, want ok=%v", tc.vals, err, tc.ok)
			}
		})
	}
}

// An ETag is the revision in quotes, and reads back as it.
func TestETagRoundTrips(t *testing.T) {
	for _, rev := range []int64{1, 12, 9223372036854775807} {
		tag := ETag(rev)
		if want := `"` + wire.FormatDecimal(rev) + `"`; tag != want {
			t.Fatalf("ETag(%d) = %s, want %s", rev, tag, want)
		}
		if got, ok := ParseETag(tag); !ok || got != rev {
			t.Fatalf("ParseETag(%s) = %d, %v", tag, got, ok)
		}
	}
}

// Observe and delete need the generation fence; the message names the route.
func TestRequireFence(t *testing.T) {
	if e := RequireFence(decide.Preconditions{Fence: 1}, "delete"); e != nil {
		t.Fatalf("a fence was sent: %v", e)
	}
	e := RequireFence(decide.Preconditions{IfMatch: 4}, "observe")
	if e == nil || e.Code != wire.CodeInvalidArgument || !strings.Contains(e.Message, "route observe requires Takoform-Expected-Generation") {
		t.Fatalf("no fence: %v, want invalid_argument naming the route and the header", e)
	}
}
