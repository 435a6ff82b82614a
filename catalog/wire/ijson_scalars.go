package wire

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Strings and numbers of the raw gate.

func simpleEscape(e byte) (byte, bool) {
	switch e {
	case '"', '\\', '/':
		return e, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// str scans a string starting at the opening quote. With want it returns the
// unescaped value: the document's own bytes when the string holds no escape.
func (s *scanner) str(want bool) ([]byte, error) {
	s.pos++ // opening quote
	start := s.pos
	var b []byte // the unescaped value once an escape was met
	for {
		if s.pos >= len(s.data) {
			return nil, s.fail("unterminated string")
		}
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			if b == nil {
				return s.data[start : s.pos-1], nil
			}
			return b, nil
		case c < 0x20:
			return nil, s.fail(fmt.Sprintf("raw control character U+%04X in a string; escape it", c))
		case c == '\\':
			if want && b == nil {
				b = append([]byte(nil), s.data[start:s.pos]...)
			}
			if err := s.escape(&b, want); err != nil {
				return nil, err
			}
		default:
			if want && b != nil {
				b = append(b, c)
			}
			s.pos++ // the document is valid UTF-8: bytes are copied as they are
		}
	}
}

func (s *scanner) escape(b *[]byte, want bool) error {
	if s.pos+1 >= len(s.data) {
		return s.fail("unterminated escape sequence")
	}
	e := s.data[s.pos+1]
	if r, ok := simpleEscape(e); ok {
		if want {
			*b = append(*b, r)
		}
		s.pos += 2
		return nil
	}
	if e != 'u' {
		return s.fail(fmt.Sprintf("invalid escape \\%c; JSON allows only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", e))
	}
	r1, ok := s.hex4(s.pos + 2)
	if !ok {
		return s.fail("invalid \\u escape; it needs four hex digits")
	}
	s.pos += 6
	switch {
	case utf16.IsSurrogate(rune(r1)) && r1 < 0xDC00:
		if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
			if r2, ok := s.hex4(s.pos + 2); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				if want {
					*b = utf8.AppendRune(*b, utf16.DecodeRune(rune(r1), rune(r2)))
				}
				s.pos += 6
				return nil
			}
		}
		return s.fail(fmt.Sprintf("lone high surrogate \\u%04x; pair it with a low surrogate or write the character itself", r1))
	case r1 >= 0xDC00 && r1 <= 0xDFFF:
		return s.fail(fmt.Sprintf("lone low surrogate \\u%04x; write the character itself", r1))
	}
	if want {
		*b = utf8.AppendRune(*b, rune(r1))
	}
	return nil
}

func (s *scanner) hex4(at int) (uint16, bool) {
	if at+4 > len(s.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(unsafeString(s.data[at:at+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	return uint16(v), true
}

func (s *scanner) number() error {
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
		return s.fail("invalid number; a digit must follow '-'")
	}
	if d[i] == '0' {
		i++
		if i < len(d) && d[i] >= '0' && d[i] <= '9' {
			s.pos = i
			return s.fail("number with a leading zero; write it without leading zeros")
		}
	} else {
		digits()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			s.pos = i
			return s.fail("invalid number; digits must follow the decimal point")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			s.pos = i
			return s.fail("invalid number; digits must follow the exponent")
		}
	}
	lit := string(d[start:i])
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return s.fail(fmt.Sprintf("number %s is not a finite binary64 value; use a smaller number", lit))
	}
	if f == 0 && lit[0] == '-' {
		return s.fail(fmt.Sprintf("negative zero (%s) is not allowed; use 0", lit))
	}
	s.pos, s.num = i, f
	return nil
}
