package wire

import (
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
)

// OneLine is a body as a message shows it: its whitespace runs as single spaces
// (an HTML page's lines would break the message's), cut to at most max bytes on a
// character boundary, with "…" where it was cut.
func OneLine(b []byte, max int) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// BodyType says the media type an answer declares for its body, for a message
// about a body that is not the JSON the protocol wants: "a text/html body".
func BodyType(h http.Header) string {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return "a body of no declared media type"
	}
	return "a " + mt + " body"
}
