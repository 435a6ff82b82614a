package rules

import (
	"regexp"
	"strings"
	"testing"

	"github.com/takokit/takokit/catalog/wire"
)

// The published pattern (docs/protocol.md#aggregate, the catalog definitions), used here only to prove
// the hand-written checker agrees with it.
var hostnamePattern = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+\.?$`)

func TestCanonicalHostname(t *testing.T) {
	cases := map[string]string{
		"API.Example.com":       "api.example.com",
		"api.example.com.":      "api.example.com",
		"api.example.com":       "api.example.com",
		"api.example.com..":     "api.example.com..",
		"XN--BCHER-KVA.Example": "xn--bcher-kva.example",
		"Bücher.Example":        "bücher.example",
		"ZULU.Example.ORG":      "zulu.example.org",
		"A9.Z9":                 "a9.z9",
	}
	for in, want := range cases {
		if got := CanonicalHostname(in); got != want {
			t.Errorf("CanonicalHostname(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHostnameClaimKeyAccepts(t *testing.T) {
	cases := map[string]string{
		"API.Example.com":                    "api.example.com",
		"api.example.com.":                   "api.example.com",
		"xn--bcher-kva.example":              "xn--bcher-kva.example",
		"a.b":                                "a.b",
		"1.2.3.4":                            "1.2.3.4",
		"my-app.example.invalid":             "my-app.example.invalid",
		"Zz9.example.com":                    "zz9.example.com",
		strings.Repeat("a", 63) + ".example": strings.Repeat("a", 63) + ".example",
		longName(253):                        longName(253),
		longName(253) + ".":                  longName(253),
	}
	for in, want := range cases {
		got, r := HostnameClaimKey("/hostname", in)
		if r != nil || got != want {
			t.Errorf("HostnameClaimKey(%q) = %q, %v; want %q", in, got, r, want)
		}
	}
}

// longName builds an n-character name of 63-character labels.
func longName(n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		rest := n - b.Len()
		if rest > 63 {
			rest = 63
		}
		b.WriteString(strings.Repeat("a", rest))
	}
	return b.String()
}

func TestHostnameClaimKeyRefuses(t *testing.T) {
	cases := map[string]string{
		"bücher.example":                     "U-labels are refused",
		"例え.jp":                              "U-labels are refused",
		"api.example.com..":                  "is empty",
		".example.com":                       "label 1 \"\" is empty",
		"a..b":                               "label 2 \"\" is empty",
		"localhost":                          "single label",
		"localhost.":                         "single label",
		"":                                   `hostname "" is empty; accepted:`,
		"\u0080.example":                     "non-ASCII character '\\u0080' at byte 0",
		"-api.example.com":                   "starts or ends with a hyphen",
		"api-.example.com":                   "starts or ends with a hyphen",
		"api_x.example.com":                  "contains '_'",
		"not a hostname":                     "contains ' '",
		strings.Repeat("a", 64) + ".example": "more than 63",
		longName(254):                        "more than 253",
		"\xff.example":                       "not valid UTF-8",
	}
	for in, reason := range cases {
		got, r := HostnameClaimKey("/hostname", in)
		if r == nil {
			t.Errorf("HostnameClaimKey(%q) = %q, want a refusal", in, got)
			continue
		}
		if r.Code != wire.CodeInvalidArgument || r.Pointer != "/hostname" {
			t.Errorf("%q: refusal %+v, want invalid_argument at /hostname", in, r)
		}
		if !strings.Contains(r.Message, reason) || !strings.Contains(r.Message, "/hostname") || !strings.Contains(r.Message, "accepted:") {
			t.Errorf("%q: message %q must name the pointer, say %q and what is accepted", in, r.Message, reason)
		}
	}
}

// TestHostnameAgreesWithPattern: the checker accepts exactly what the published pattern
// (plus the 253 limit on the canonical value) accepts, over a generated corpus.
func TestHostnameAgreesWithPattern(t *testing.T) {
	alphabet := []string{"a", "Z", "0", "-", ".", "_", "é", "xn--", "."}
	var corpus []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		corpus = append(corpus, prefix)
		if depth == 0 {
			return
		}
		for _, s := range alphabet {
			gen(prefix+s, depth-1)
		}
	}
	gen("", 5)
	corpus = append(corpus, longName(253), longName(254), longName(253)+".", strings.Repeat("b", 64)+".c")
	for _, in := range corpus {
		want := hostnamePattern.MatchString(in) && len(CanonicalHostname(in)) <= HostnameMaxLength
		_, r := HostnameClaimKey("/hostname", in)
		if (r == nil) != want {
			t.Errorf("HostnameClaimKey(%q) accepted=%v, pattern says %v (%v)", in, r == nil, want, r)
		}
	}
}

// FuzzHostnameClaimKey: never panics; an accepted value is canonical, ASCII, lowercase.
func FuzzHostnameClaimKey(f *testing.F) {
	for _, s := range []string{"API.Example.com.", "a..b", "bücher.example", "-a.b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		key, r := HostnameClaimKey("/hostname", s)
		if r != nil {
			return
		}
		if key != strings.ToLower(key) || CanonicalHostname(key) != key || !hostnamePattern.MatchString(key) {
			t.Fatalf("%q accepted as non-canonical key %q", s, key)
		}
	})
}
