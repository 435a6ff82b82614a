package wire

import (
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// unsafeString views b as a string without copying; b must not change while
// the string is in use.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

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
func CheckIJSON(data []byte) error { return checkIJSON(data, false) }

// CheckIJSONButDuplicates is CheckIJSON with duplicate member names let
// through: what a host that keeps the last of duplicate members (hostsim's
// fault json.duplicates) must still refuse.
func CheckIJSONButDuplicates(data []byte) error { return checkIJSON(data, true) }

func checkIJSON(data []byte, dupsAllowed bool) error {
	var buf [16]step
	s := &scanner{data: data, path: buf[:0], dupsAllowed: dupsAllowed}
	if !utf8.Valid(data) {
		i := firstInvalidUTF8(data)
		return &JSONError{Pointer: "", Offset: i, Message: "the document is not valid UTF-8; use UTF-8 encoded JSON"}
	}
	s.ws()
	if err := s.value(0); err != nil {
		return err
	}
	s.ws()
	if s.pos != len(data) {
		return s.fail("trailing data after the JSON value; keep exactly one JSON value")
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
	path path
	num  float64 // the value of the last number scanned
	// dupsAllowed lets duplicate member names through (CheckIJSONButDuplicates)
	dupsAllowed bool
}

// fail reports a problem at the JSON Pointer of what the scanner is in: the
// pointer's text is built only then, from the path it keeps.
func (s *scanner) fail(msg string) error {
	return &JSONError{Pointer: s.path.String(), Offset: s.pos, Message: msg}
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

func (s *scanner) value(depth int) error {
	if s.pos >= len(s.data) {
		return s.fail("unexpected end of input; the JSON value is incomplete")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object(depth + 1)
	case c == '[':
		return s.array(depth + 1)
	case c == '"':
		_, err := s.str(false)
		return err
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.fail(fmt.Sprintf("unexpected character %q; expected a JSON value", rune(c)))
	}
}

func (s *scanner) literal(lit string) error {
	if !strings.HasPrefix(unsafeString(s.data[s.pos:min(len(s.data), s.pos+len(lit))]), lit) {
		return s.fail("invalid literal; expected true, false or null")
	}
	s.pos += len(lit)
	return nil
}

func (s *scanner) object(depth int) error {
	if depth > MaxDepth {
		return s.fail(fmt.Sprintf("more than %d nested containers; flatten the document", MaxDepth))
	}
	s.pos++ // {
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		return nil
	}
	var small [16][]byte // member names so far (unescaped); a map past 16
	names := small[:0]
	var many map[string]bool
	for {
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return s.fail("expected a member name in double quotes")
		}
		name, err := s.str(true)
		if err != nil {
			return err
		}
		s.path = append(s.path, step{name: name})
		dup := false
		if many != nil {
			dup = many[string(name)]
			many[string(name)] = true
		} else {
			for _, n := range names {
				dup = dup || string(n) == string(name)
			}
			if names = append(names, name); len(names) > len(small) {
				many = make(map[string]bool, 2*len(names))
				for _, n := range names {
					many[string(n)] = true
				}
			}
		}
		if dup && !s.dupsAllowed {
			return s.fail(fmt.Sprintf("duplicate member name %q; every member name in an object must be unique", name))
		}
		s.ws()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return s.fail("expected ':' after the member name")
		}
		s.pos++
		s.ws()
		if err := s.value(depth); err != nil {
			return err
		}
		s.path = s.path[:len(s.path)-1]
		s.ws()
		if s.pos >= len(s.data) {
			return s.fail("unexpected end of input inside an object")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or '}' after an object member")
		}
	}
}

func (s *scanner) array(depth int) error {
	if depth > MaxDepth {
		return s.fail(fmt.Sprintf("more than %d nested containers; flatten the document", MaxDepth))
	}
	s.pos++ // [
	s.ws()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		return nil
	}
	for i := 0; ; i++ {
		s.ws()
		s.path = append(s.path, step{index: i})
		if err := s.value(depth); err != nil {
			return err
		}
		s.path = s.path[:len(s.path)-1]
		s.ws()
		if s.pos >= len(s.data) {
			return s.fail("unexpected end of input inside an array")
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return nil
		default:
			return s.fail("expected ',' or ']' after an array element")
		}
	}
}
