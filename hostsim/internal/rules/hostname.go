package rules

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// HostnameMaxLength is the longest canonical custom-domain hostname (docs/protocol.md#aggregate).
const HostnameMaxLength = 253

// HostnameGrammar says what a custom-domain hostname may be, for refusal messages.
const HostnameGrammar = "an ASCII DNS name of at least two dot-separated labels, each 1-63 letters, " +
	"digits or hyphens neither starting nor ending with a hyphen, at most 253 characters, " +
	"optionally ending in one dot; internationalized names are sent as A-labels (xn--…)"

// CanonicalHostname is the materialization of docs/protocol.md#aggregate: exactly one trailing
// dot is removed (two stay, and then fail the grammar) and ASCII A–Z become lowercase.
// Nothing else changes: no IDNA mapping, non-ASCII bytes are kept as sent.
func CanonicalHostname(s string) string {
	if strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "..") {
		s = s[:len(s)-1]
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + ('a' - 'A')
		}
	}
	return string(b)
}

// HostnameClaimKey checks the custom-domain hostname value found at pointer and returns
// the canonical hostname, which is also the tenant-wide claim key. It refuses, with
// invalid_argument naming the pointer, the value and the accepted shape: a U-label (any
// non-ASCII character), an empty label (two trailing dots included), a label over 63
// characters or with a character outside letters, digits and hyphen, a hyphen at a
// label's edge, a single-label name and a canonical name over 253 characters. It accepts
// exactly what the published hostname pattern accepts.
func HostnameClaimKey(pointer, value string) (string, *Refusal) {
	if reason := hostnameProblem(value); reason != "" {
		return "", invalid(pointer, "%s: hostname %q %s; accepted: %s", pointer, value, reason, HostnameGrammar)
	}
	return CanonicalHostname(value), nil
}

func hostnameProblem(value string) string {
	if !utf8.ValidString(value) {
		return "is not valid UTF-8"
	}
	for i, r := range value {
		if r >= utf8.RuneSelf {
			return fmt.Sprintf("contains the non-ASCII character %q at byte %d: U-labels are refused, send the A-label (xn--…) form", r, i)
		}
	}
	canon := CanonicalHostname(value)
	if canon == "" {
		return "is empty"
	}
	if len(canon) > HostnameMaxLength {
		return fmt.Sprintf("is %d characters long without its trailing dot, more than %d", len(canon), HostnameMaxLength)
	}
	labels := strings.Split(canon, ".")
	for i, l := range labels {
		if p := labelProblem(l); p != "" {
			return fmt.Sprintf("label %d %q %s", i+1, l, p)
		}
	}
	if len(labels) < 2 {
		return "has a single label; a custom domain needs at least two"
	}
	return ""
}

func labelProblem(l string) string {
	switch {
	case l == "":
		return "is empty (two dots in a row, a leading dot or more than one trailing dot)"
	case len(l) > 63:
		return fmt.Sprintf("is %d characters long, more than 63", len(l))
	case l[0] == '-' || l[len(l)-1] == '-':
		return "starts or ends with a hyphen"
	}
	for _, c := range []byte(l) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Sprintf("contains %q; labels hold only letters, digits and hyphens", c)
		}
	}
	return ""
}
