package conformance

import (
	"maps"
	"strings"
	"testing"
)

// cut keeps a body of exactly n bytes whole, and never ends an excerpt inside a
// UTF-8 sequence.
func TestCutAtItsBound(t *testing.T) {
	for _, c := range []struct {
		in        string
		n         int
		want      string
		truncated bool
	}{
		{"abcd", 4, "abcd", false},
		{"abcde", 4, "abcd", true},
		{"aé", 2, "a", true},   // é is two bytes: the cut backs off to its start
		{"a€b", 3, "a", true},  // € is three
		{"a€b", 4, "a€", true}, // the cut falls after it
		{"", 4, "", false},
	} {
		got, tr := cut([]byte(c.in), c.n)
		if got != c.want || tr != c.truncated {
			t.Errorf("cut(%q, %d) = %q, %v; want %q, %v", c.in, c.n, got, tr, c.want, c.truncated)
		}
	}
}

// Every part of an exchange a report shows is redacted: the request line (a
// name may hold a token), the body, the error and each kept header; a token of
// exactly minRedactLen characters counts as a token.
func TestRedactorCoversEveryPartOfAnExchange(t *testing.T) {
	const tok = "k9Zq" // minRedactLen characters
	if len(tok) != minRedactLen {
		t.Fatalf("the token should be %d characters long", minRedactLen)
	}
	r := newRedactor(tok, "", "other-token-77")
	x := &Exchange{Request: "GET /names/" + tok, Status: 401,
		Headers: map[string]string{"Location": "/names/other-token-77", "Etag": `"3"`},
		Body:    `{"saw":"Bearer abc.def"}`, Error: "the host said " + tok}
	got := r.exchange(x)
	want := Exchange{Request: "GET /names/[redacted]", Status: 401,
		Headers: map[string]string{"Location": "/names/[redacted]", "Etag": `"3"`},
		Body:    `{"saw":"Bearer [redacted]"}`, Error: "the host said [redacted]"}
	if got.Request != want.Request || got.Status != want.Status || got.Body != want.Body || got.Error != want.Error ||
		!maps.Equal(got.Headers, want.Headers) {
		t.Errorf("redacted exchange\n got %+v\nwant %+v", *got, want)
	}
	if x.Request != "GET /names/"+tok || x.Headers["Location"] != "/names/other-token-77" {
		t.Errorf("redacting changed the original exchange: %+v", *x)
	}
	if r.exchange(nil) != nil {
		t.Error("no exchange redacts to none")
	}
	if got := r.exchange(&Exchange{Request: "GET /x"}); got.Headers != nil || strings.Contains(got.Request, "[redacted]") {
		t.Errorf("an exchange without headers: %+v", *got)
	}
}
