package wire

import (
	"sort"
	"unicode/utf8"
)

// canonicalFast writes the RFC 8785 form of the values that are common on
// the hot path without a marshal and re-parse: an object of string members
// (a digest's binding, docs/protocol.md#digests) and the empty object. ok is
// false for anything else, which takes the general path.
func canonicalFast(v any) (out []byte, ok bool) {
	switch m := v.(type) {
	case map[string]string:
		keys := make([]string, 0, len(m))
		size := 2
		for k, s := range m {
			if !plainKey(k) || !utf8.ValidString(s) {
				return nil, false
			}
			keys = append(keys, k)
			size += len(k) + len(s) + 6
		}
		sort.Strings(keys) // ASCII keys: byte order is UTF-16 code-unit order
		out = make([]byte, 0, size)
		out = append(out, '{')
		for i, k := range keys {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendCanonicalString(out, k)
			out = append(out, ':')
			out = appendCanonicalString(out, m[k])
		}
		return append(out, '}'), true
	case map[string]any:
		if len(m) == 0 {
			return []byte("{}"), true
		}
	}
	return nil, false
}

// plainKey: printable ASCII only, so byte order is the canonical order.
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] < 0x20 || k[i] > 0x7e {
			return false
		}
	}
	return true
}

// appendCanonicalString escapes as RFC 8785 does: \" \\ and the control
// characters (short forms where they exist, else \u00xx); all else literal.
func appendCanonicalString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b = append(b, '\\', '"')
		case c == '\\':
			b = append(b, '\\', '\\')
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
