package wire

import (
	"net/http"
	"strings"
	"testing"
)

// TestOneLineShowsABodyOnOneLine: whitespace runs become one space, a body as
// long as the limit is whole, a longer one is cut on a character boundary, and a
// body in which no byte starts a character is cut to nothing rather than past
// its start.
func TestOneLineShowsABodyOnOneLine(t *testing.T) {
	for _, c := range []struct {
		body string
		max  int
		want string
	}{
		{"<html>\n  <body>Not   found</body>\n</html>\n", 100, "<html> <body>Not found</body> </html>"},
		{strings.Repeat("x", 10), 10, strings.Repeat("x", 10)},
		{strings.Repeat("x", 11), 10, strings.Repeat("x", 10) + "…"},
		{"{" + strings.Repeat("é", 10), 10, "{" + strings.Repeat("é", 4) + "…"}, // byte 10 is inside the fifth é
		{strings.Repeat("\x80", 20), 10, "…"},
		{"  \n ", 10, ""},
	} {
		if got := OneLine([]byte(c.body), c.max); got != c.want {
			t.Errorf("OneLine(%q, %d) = %q, want %q", c.body, c.max, got, c.want)
		}
	}
}

func TestBodyTypeSaysTheDeclaredMediaType(t *testing.T) {
	for ct, want := range map[string]string{
		"text/html; charset=utf-8": "a text/html body",
		"Text/Plain":               "a text/plain body",
		"":                         "a body of no declared media type",
		";;":                       "a body of no declared media type",
	} {
		if got := BodyType(http.Header{"Content-Type": {ct}}); got != want {
			t.Errorf("BodyType(%q) = %q, want %q", ct, got, want)
		}
	}
}
