package wire

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the most nested containers a document may hold (docs/protocol.md#json).
const MaxDepth = 256

// JSONError is one strict-JSON problem at a JSON Pointer ("" is the whole document).
type JSONError struct {
	Pointer string
	Offset  int
	Message string
}

func (e *JSONError) Error() string {
	return fmt.Sprintf("JSON at %s (byte %d): %s", quotePointer(e.Pointer), e.Offset, e.Message)
}

func quotePointer(p string) string {
	if p == "" {
		return `"" (the document)`
	}
	return p
}

// EscapePointerToken escapes one JSON Pointer reference token (RFC 6901).
func EscapePointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// CheckIJSON applies the raw gate of docs/protocol.md#json: valid UTF-8, exactly one value
// followed only by whitespace, no duplicate member names (after unescaping), only the
// JSON escapes, paired surrogates, the JSON number grammar with finite binary64 values
// and no negative zero, and at most MaxDepth nested containers.
func CheckIJSON(data []byte) error {
	s := &scanner{data: data}
	if !utf8.Valid(data) {
		i := firstInvalidUTF8(data)
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

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

type scanner struct {
	data []byte
	pos  int
}

func (s *scanner) fail(ptr, msg string) error {
	return &JSONError{Pointer: ptr, Offset: s.pos, Message: msg}
}

func (s *scanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\r', '\n':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) value(ptr string, depth int) error {
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

func (s *scanner) literal(ptr, lit string) error {
	if !strings.HasPrefix(string(s.data[s.pos:min(len(s.data), s.pos+len(lit))]), lit) {
		return s.fail(ptr, "invalid literal; expected true, false or null")
	}
	s.pos += len(lit)
	return nil
}

func (s *scanner) object(ptr string, depth int) error {
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

func (s *scanner) array(ptr string, depth int) error {
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
