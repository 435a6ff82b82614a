package wire

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// The raw gate as it was before its pointers and names stopped allocating: the
// reference the new one must agree with, error for error.

func refCheckIJSON(data []byte) error {
	s := &refScanner{data: data}
	if !utf8.Valid(data) {
		i := refFirstInvalidUTF8(data)
		return &JSONError{Pointer: "", Offset: i, Message: "the document is not valid UTF-8; use UTF-8 encoded JSON"}
	}
	s.ws()
	if err := s.value("", 0); err != nil {
		return err
	}
	s.ws()
	if s.pos != len(data) {
		return s.fail("", "trailing data after the JSON value; keep exactly one JSON value")
	}
	return nil
}

func refFirstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

type refScanner struct {
	data []byte
	pos  int
}

func (s *refScanner) fail(ptr, msg string) error {
	return &JSONError{Pointer: ptr, Offset: s.pos, Message: msg}
}

func (s *refScanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

func (s *refScanner) value(ptr string, depth int) error {
	if s.pos >= len(s.data) {
		return s.fail(ptr, "unexpected end of input; the JSON value is incomplete")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object(ptr, depth+1)
	case c == '[':
		return s.array(ptr, depth+1)
	case c == '"':
		_, err := s.str(ptr)
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(ptr)
	case c == 't':
		return s.literal(ptr, "true")
	case c == 'f':
		return s.literal(ptr, "false")
	case c == 'n':
		return s.literal(ptr, "null")
	default:
		return s.fail(ptr, fmt.Sprintf("unexpected character %q; expected a JSON value", rune(c)))
	}
}

func (s *refScanner) literal(ptr, lit string) error {
	if !strings.HasPrefix(string(s.data[s.pos:min(len(s.data), s.pos+len(lit))]), lit) {
		return s.fail(ptr, "invalid literal; expected true, false or null")
	}
	s.pos += len(lit)
	return nil
}

func (s *refScanner) object(ptr string, depth int) error {
	if depth > MaxDepth {
		return s.fail(ptr, fmt.Sprintf("more than %d nested containers; flatten the document", MaxDepth))
	}
	s.pos++ // {
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return nil
	}
	seen := map[string]bool{}
	for {
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return s.fail(ptr, "expected a member name in double quotes")
		}
		name, err := s.str(ptr)
		if err != nil {
			return err
		}
		child := ptr + "/" + EscapePointerToken(name)
		if seen[name] {
			return s.fail(child, fmt.Sprintf("duplicate member name %q; every member name in an object must be unique", name))
		}
		seen[name] = true
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return s.fail(child, "expected ':' after the member name")
		}
		s.pos++
		s.ws()
		if err := s.value(child, depth); err != nil {
			return err
		}
		s.ws()
		if s.pos >= len(s.data) {
			return s.fail(ptr, "unexpected end of input inside an object")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail(ptr, "expected ',' or '}' after an object member")
		}
	}
}

func (s *refScanner) array(ptr string, depth int) error {
	if depth > MaxDepth {
		return s.fail(ptr, fmt.Sprintf("more than %d nested containers; flatten the document", MaxDepth))
	}
	s.pos++ // [
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		s.ws()
		if err := s.value(ptr+"/"+strconv.Itoa(i), depth); err != nil {
			return err
		}
		s.ws()
		if s.pos >= len(s.data) {
			return s.fail(ptr, "unexpected end of input inside an array")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail(ptr, "expected ',' or ']' after an array element")
		}
	}
}

var refSimpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// str scans a string starting at the opening quote and returns its unescaped value.
func (s *refScanner) str(ptr string) (string, error) {
	s.pos++ // opening quote
	var b strings.Builder
	for {
		if s.pos >= len(s.data) {
			return "", s.fail(ptr, "unterminated string")
		}
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return b.String(), nil
		case c < 0x20:
			return "", s.fail(ptr, fmt.Sprintf("raw control character U+%04X in a string; escape it", c))
		case c == '\\':
			if err := s.escape(ptr, &b); err != nil {
				return "", err
			}
		default:
			r, n := utf8.DecodeRune(s.data[s.pos:])
			b.WriteRune(r)
			s.pos += n
		}
	}
}

func (s *refScanner) escape(ptr string, b *strings.Builder) error {
	if s.pos+1 >= len(s.data) {
		return s.fail(ptr, "unterminated escape sequence")
	}
	e := s.data[s.pos+1]
	if r, ok := refSimpleEscapes[e]; ok {
		b.WriteByte(r)
		s.pos += 2
		return nil
	}
	if e != 'u' {
		return s.fail(ptr, fmt.Sprintf("invalid escape \\%c; JSON allows only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", e))
	}
	r1, ok := s.hex4(s.pos + 2)
	if !ok {
		return s.fail(ptr, "invalid \\u escape; it needs four hex digits")
	}
	s.pos += 6
	switch {
	case utf16.IsSurrogate(rune(r1)) && r1 < 0xDC00:
		if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
			if r2, ok := s.hex4(s.pos + 2); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				b.WriteRune(utf16.DecodeRune(rune(r1), rune(r2)))
				s.pos += 6
				return nil
			}
		}
		return s.fail(ptr, fmt.Sprintf("lone high surrogate \\u%04x; pair it with a low surrogate or write the character itself", r1))
	case r1 >= 0xDC00 && r1 <= 0xDFFF:
		return s.fail(ptr, fmt.Sprintf("lone low surrogate \\u%04x; write the character itself", r1))
	}
	b.WriteRune(rune(r1))
	return nil
}

func (s *refScanner) hex4(at int) (uint16, bool) {
	if at+4 > len(s.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.data[at:at+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	return uint16(v), true
}

func (s *refScanner) number(ptr string) error {
	start := s.pos
	d := s.data
	i := s.pos
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i >= len(d) || d[i] < '0' || d[i] > '9' {
		s.pos = i
		return s.fail(ptr, "invalid number; a digit must follow '-'")
	}
	if d[i] == '0' {
		i++
		if i < len(d) && d[i] >= '0' && d[i] <= '9' {
			s.pos = i
			return s.fail(ptr, "number with a leading zero; write it without leading zeros")
		}
	} else {
		digits()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			s.pos = i
			return s.fail(ptr, "invalid number; digits must follow the decimal point")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			s.pos = i
			return s.fail(ptr, "invalid number; digits must follow the exponent")
		}
	}
	lit := string(d[start:i])
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return s.fail(ptr, fmt.Sprintf("number %s is not a finite binary64 value; use a smaller number", lit))
	}
	if f == 0 && lit[0] == '-' {
		return s.fail(ptr, fmt.Sprintf("negative zero (%s) is not allowed; use 0", lit))
	}
	s.pos = i
	return nil
}

func sameGate(t *testing.T, data []byte) {
	got, want := CheckIJSON(data), refCheckIJSON(data)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: gate %v, reference %v", data, got, want)
	}
}

func TestGateAgreesWithItsReference(t *testing.T) {
	for _, d := range []string{`{}`, `{"a":1,"a":2}`, `{"a\u0062":1,"ab":2}`, `{"\ud800":1}`, `{"x":"\uDC00"}`,
		`[1,2,{"a":[{"b":"\q"}]}]`, `{"a":-0}`, `{"a":1e999}`, "{\"a\":\"\x01\"}", `{"a":tru}`, `{"a" 1}`,
		`{"a":1,}`, `[1 2]`, `{"é":{"é":1,"e\u0301":2,"é":3}}`, `"\ud83d\ude00"`, `{"a":"b"} x`, "\xff",
		`{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10,"11":11,"12":12,"13":13,"14":14,"15":15,"16":16,"17":17,"2":0}`,
		strings.Repeat("[", 300)} {
		sameGate(t, []byte(d))
	}
}

// manyMembers is an object of n distinct members followed by extra ones: past 16
// names the gate looks duplicates up in a map instead of its small list.
func manyMembers(n int, extra string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `"m%d":%d,`, i, i)
	}
	return b.String() + extra + "}"
}

// Every prefix of documents that use each construct of the gate (CRLF and tab
// whitespace, escapes of every kind, surrogate pairs, numbers of every shape,
// nesting, a name unescaped from two escapes, a duplicate past the 16th member,
// U+FFFD written as itself before an invalid byte, a raw U+001F) is judged as
// the reference judges it. A prefix ends the input inside every token, which is
// where a missing bounds check would read past the document.
func TestGateAgreesWithItsReferenceOnEveryPrefix(t *testing.T) {
	docs := []string{
		"{\r\n\t\"a\" :\r\n [1, -2.5e+3, 0.25E-2, 1e9, true, false, null, {}, []],\n \"b\\\"\\\\\\/\\b\\f\\n\\r\\t\": \"\\u00e9\\ud83d\\ude00\"}\r\n",
		`{"\u0061\u0062":1,"ab":2}`,
		`{"x\u0061":{"y":[{"z":"\ud800\udc00"}]},"xa":0}`,
		manyMembers(17, `"m18":1,"m18":2`),
		manyMembers(20, `"m3":0`),
		"[\"\xef\xbf\xbd\xff\"]",
		"[\"a\x1fb\"]",
		`[-0.0e-0, 10, 0, -1, 1.0, 1E+2]`,
		`"\u0041"`,
	}
	for _, d := range docs {
		for i := 0; i <= len(d); i++ {
			sameGate(t, []byte(d[:i]))
		}
	}
}

func FuzzGateAgreesWithItsReference(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) { sameGate(t, data) })
}
