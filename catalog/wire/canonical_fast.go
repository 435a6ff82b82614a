package wire

import (
	"encoding/json"
	"math"
	"sort"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// canonicalFast writes the RFC 8785 form of the values that are common on
// the hot path without a marshal and re-parse: an object of string members
// (a digest's binding, docs/protocol.md#digests), and a decoded JSON document
// (a spec: objects with printable-ASCII member names, arrays, strings,
// booleans, null, and finite numbers other than negative zero, as float64 or
// json.Number). ok is false for anything else, which takes the general path
// and so meets its errors.
func canonicalFast(v any) (out []byte, ok bool) {
	switch m := v.(type) {
	case map[string]string:
		keys, ok := sortedPlainKeys(m, make([]string, 0, len(m)))
		if !ok {
			return nil, false
		}
		out = append(make([]byte, 0, 256), '{')
		for i, k := range keys {
			if !utf8.ValidString(m[k]) {
				return nil, false
			}
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
		return appendCanonical(make([]byte, 0, 256), m, 0)
	}
	return nil, false
}

// appendCanonical appends the RFC 8785 form of a decoded JSON value at
// nesting depth, or reports false for a value the general path must take.
func appendCanonical(b []byte, v any, depth int) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		if x {
			return append(b, "true"...), true
		}
		return append(b, "false"...), true
	case string:
		if !utf8.ValidString(x) {
			return nil, false
		}
		return appendCanonicalString(b, x), true
	case float64:
		if x == 0 && math.Signbit(x) {
			return nil, false // the general path refuses negative zero
		}
		n, err := jcs.NumberToJSON(x) // ES6 form; an error for NaN and ±Inf
		if err != nil {
			return nil, false
		}
		return append(b, n...), true
	case json.Number:
		// the raw gate's number grammar (finite, no negative zero), then its value
		sc := scanner{data: []byte(x)}
		if len(x) == 0 || sc.number() != nil || sc.pos != len(x) {
			return nil, false
		}
		return appendCanonical(b, sc.num, depth)
	case []any:
		if depth >= MaxDepth-1 {
			return nil, false
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendCanonical(b, e, depth+1); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if depth >= MaxDepth-1 {
			return nil, false
		}
		var small [16]string
		keys, ok := sortedPlainKeys(x, small[:0])
		if !ok {
			return nil, false
		}
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendCanonical(b, x[k], depth+1); !ok {
				return nil, false
			}
		}
		return append(b, '}'), true
	}
	return nil, false
}

// sortedPlainKeys appends m's keys to keys in canonical order, or reports
// false when one is not plainKey (the general path then sorts by UTF-16).
func sortedPlainKeys[V any](m map[string]V, keys []string) ([]string, bool) {
	for k := range m {
		if !plainKey(k) {
			return nil, false
		}
		keys = append(keys, k)
	}
	sort.Strings(keys) // ASCII keys: byte order is UTF-16 code-unit order
	return keys, true
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
