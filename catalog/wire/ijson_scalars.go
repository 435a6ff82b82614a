package wire

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Strings and numbers of the raw gate.

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// str scans a string starting at the opening quote and returns its unescaped value.
func (s *scanner) str(ptr string) (string, error) {
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

func (s *scanner) escape(ptr string, b *strings.Builder) error {
	if s.pos+1 >= len(s.data) {
		return s.fail(ptr, "unterminated escape sequence")
	}
	e := s.data[s.pos+1]
	if r, ok := simpleEscapes[e]; ok {
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

func (s *scanner) hex4(at int) (uint16, bool) {
	if at+4 > len(s.data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.data[at:at+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	return uint16(v), true
}

func (s *scanner) number(ptr string) error {
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
