package selftest

import (
	"net/http"
	"slices"
	"testing"
)

// TestLiesEditOnlyTheirMember: a lie changes the members it names and leaves
// every other byte of the answer as the host sent it (a check comparing two
// answers byte for byte must see only the lie).
func TestLiesEditOnlyTheirMember(t *testing.T) {
	body := `{"a": {"uid": "u-1f", "n": [1, 2]}, "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\""}`
	a := answer{target: "GET /x", status: 200, header: http.Header{}, body: []byte(body)}
	earlier := []answer{{target: "GET /x", status: 200, header: http.Header{}, body: []byte(`{"uid":"other"}`)}}
	for _, c := range []struct{ lie, want string }{
		{"alter:uid", `{"a": {"uid": "u-1a", "n": [1, 2]}, "uid":"x0", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"alter:ok", `{"a": {"uid": "u-1f", "n": [1, 2]}, "uid":"x9", "ok": false, "m": {}, "s": "it's \"q\""}`},
		{"alter:s", `{"a": {"uid": "u-1f", "n": [1, 2]}, "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\"x"}`},
		{"previous:uid", `{"a": {"uid": "other", "n": [1, 2]}, "uid":"other", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"drop:a", `{ "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"drop:m", `{"a": {"uid": "u-1f", "n": [1, 2]}, "uid":"x9", "ok": true,  "s": "it's \"q\""}`},
		{"drop:n", `{"a": {"uid": "u-1f"}, "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"shrink:n", `{"a": {"uid": "u-1f", "n": [1]}, "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"grow:n", `{"a": {"uid": "u-1f", "n": [1,1, 2]}, "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"member", `{"takokitLie":true,"a": {"uid": "u-1f", "n": [1, 2]}, "uid":"x9", "ok": true, "m": {}, "s": "it's \"q\""}`},
		{"replay", `{"uid":"other"}`},
	} {
		got, ok := tellLie(c.lie, a, earlier)
		if !ok || string(got.body) != c.want {
			t.Errorf("%s told %v:\n got %s\nwant %s", c.lie, ok, got.body, c.want)
		}
	}
	for _, lie := range []string{"alter:m", "drop:ok", "shrink:uid", "grow:m", "body", "alter:missing"} {
		if got, ok := tellLie(lie, a, earlier); ok {
			t.Errorf("%s cannot be told about %s, but told %s", lie, body, got.body)
		}
	}
	if _, ok := tellLie("previous:uid", a, nil); ok {
		t.Error("previous:uid was told with no earlier answer")
	}
	// a revision's lie moves the ETag that quotes it
	r := answer{status: 200, header: http.Header{"Etag": {`"3"`}}, body: []byte(`{"metadata":{"revision":"3"}}`)}
	got, _ := tellLie("alter:revision", r, nil)
	if string(got.body) != `{"metadata":{"revision":"4"}}` || got.header.Get("ETag") != `"4"` || r.header.Get("ETag") != `"3"` {
		t.Errorf("alter:revision told %s with ETag %s (the host's answer's ETag now %s)", got.body, got.header.Get("ETag"), r.header.Get("ETag"))
	}
}

// A narrowed recording replaces its checks' lines in place and keeps the others.
func TestNarrowedRecordingReplacesOnlyItsChecks(t *testing.T) {
	e := func(id string, n int) lieEntry {
		return lieEntry{id: id, n: n, target: "GET /x", lie: "member", ending: "fail: x"}
	}
	old := []lieEntry{e("a", 1), e("b", 1), e("b", 2), e("c", 1)}
	fresh := []lieEntry{e("b", 3), e("d", 1)}
	got := mergeLies(old, fresh, []string{"b", "d"})
	want := []lieEntry{e("a", 1), e("b", 3), e("c", 1), e("d", 1)}
	if !slices.Equal(got, want) {
		t.Fatalf("merged %v, want %v", got, want)
	}
	if got := mergeLies(old, nil, []string{"c"}); !slices.Equal(got, old[:3]) {
		t.Fatalf("a check that now ends no lie keeps no line: got %v", got)
	}
}
