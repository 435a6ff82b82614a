package selftest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// member is one object member of a JSON text, by byte offsets: the key's
// opening quote, the value's first byte and the byte after the value.
type member struct {
	key                 string
	start, vstart, vend int
}

// members lists every object member of the JSON text b, at any depth, in the
// order their keys appear; nil when b is not JSON. Offsets let a lie edit one
// value and leave every other byte of the answer as the host sent it (a check
// that compares two answers byte for byte sees only the lie).
func members(b []byte) []member {
	if !json.Valid(b) {
		return nil
	}
	var out []member
	scanValue(b, skipSpace(b, 0), &out)
	return out
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the offset after the string starting at b[i] ('"').
func scanString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// scanValue returns the offset after the value starting at b[i], appending the
// members of the objects it holds to out. b is valid JSON (members checked).
func scanValue(b []byte, i int, out *[]member) int {
	switch b[i] {
	case '"':
		return scanString(b, i)
	case '{', '[':
		obj, end := b[i] == '{', byte('}')
		if !obj {
			end = ']'
		}
		i = skipSpace(b, i+1)
		if b[i] == end {
			return i + 1
		}
		for {
			if obj {
				start, kend := i, scanString(b, i)
				var key string
				_ = json.Unmarshal(b[start:kend], &key)
				vs := skipSpace(b, skipSpace(b, kend)+1) // past the colon
				at := len(*out)
				*out = append(*out, member{key: key, start: start, vstart: vs})
				i = scanValue(b, vs, out)
				(*out)[at].vend = i
			} else {
				i = scanValue(b, i, out)
			}
			i = skipSpace(b, i)
			if b[i] == end {
				return i + 1
			}
			i = skipSpace(b, i+1) // past the comma
		}
	default: // a number, true, false, null
		for i < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[i])) {
			i++
		}
		return i
	}
}

// elements gives the [start, end) offsets of the elements of the array value v.
func elements(v []byte) [][2]int {
	var spans [][2]int
	i := skipSpace(v, 1)
	if i >= len(v) || v[i] == ']' {
		return nil
	}
	for {
		var discard []member
		e := scanValue(v, i, &discard)
		spans = append(spans, [2]int{i, e})
		i = skipSpace(v, e)
		if i >= len(v) || v[i] == ']' {
			return spans
		}
		i = skipSpace(v, i+1)
	}
}

// marshal encodes v as JSON without escaping HTML (as hosts write it).
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings and numbers reach here
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// altered is another value of the same kind and, where it can, the same
// grammar: a decimal string moves up by one (a generation), any other string
// changes its last character within its class (a uid, a digest and a name stay
// well formed: a hex digit stays one), a number moves up by one, a boolean flips. ok is false for
// null, an object or an array.
func altered(v []byte) (out []byte, ok bool) {
	switch {
	case len(v) > 0 && v[0] == '"':
		var s string
		if json.Unmarshal(v, &s) != nil {
			return nil, false
		}
		return marshal(otherString(s)), true
	case string(v) == "true":
		return []byte("false"), true
	case string(v) == "false":
		return []byte("true"), true
	case len(v) > 0 && (v[0] == '-' || v[0] >= '0' && v[0] <= '9'):
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return []byte(strconv.FormatInt(n+1, 10)), true
		}
		return []byte("0"), true
	}
	return nil, false
}

// otherString is s changed as altered says.
func otherString(s string) string {
	if n, err := strconv.ParseUint(s, 10, 63); err == nil && s == strconv.FormatUint(n, 10) {
		return strconv.FormatUint(n+1, 10)
	}
	if s == "" {
		return "x"
	}
	last, size := utf8.DecodeLastRuneInString(s)
	switch { // a hex digit stays one (a digest's last), a letter stays a letter
	case last == '9':
		last = '0'
	case last == 'f':
		last = 'a'
	case last == 'z':
		last = 'g'
	case last == 'F':
		last = 'A'
	case last == 'Z':
		last = 'G'
	case last >= '0' && last < '9', last >= 'a' && last < 'z', last >= 'A' && last < 'Z':
		last++
	default:
		return s + "x"
	}
	return s[:len(s)-size] + string(last)
}

// splice replaces b[from:to] with with.
func splice(b []byte, from, to int, with []byte) []byte {
	out := make([]byte, 0, len(b)-(to-from)+len(with))
	out = append(out, b[:from]...)
	out = append(out, with...)
	return append(out, b[to:]...)
}

// outermost keeps the members named key that lie inside no other member of
// that name, last first: editing them in that order keeps the offsets of the
// ones still to edit.
func outermost(ms []member, key string) []member {
	var keep []member
	for _, m := range ms {
		if m.key != key {
			continue
		}
		if n := len(keep); n > 0 && m.start < keep[n-1].vend {
			continue // inside the previous one
		}
		keep = append(keep, m)
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	return keep
}

// dropMember removes member m and one comma beside it from b.
func dropMember(b []byte, m member) []byte {
	from, to := m.start, m.vend
	if j := skipSpace(b, to); j < len(b) && b[j] == ',' {
		to = j + 1
	} else {
		k := from - 1
		for k >= 0 && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
			k--
		}
		if k >= 0 && b[k] == ',' {
			from = k
		}
	}
	return splice(b, from, to, nil)
}
