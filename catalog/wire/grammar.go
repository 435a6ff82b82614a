package wire

import "strconv"

// MaxUIDLength is the longest uid the lane allows.
const MaxUIDLength = 128

// ValidUID reports whether s is a resource uid: an ASCII letter or digit, then
// up to 127 letters, digits, '.', '_' or '-' (docs/protocol.md#identity).
func ValidUID(s string) bool {
	if s == "" || len(s) > MaxUIDLength {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		alnum := b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
		if !alnum && (i == 0 || b != '.' && b != '_' && b != '-') {
			return false
		}
	}
	return true
}

// ParseDecimal reads a canonical positive decimal: 1..9223372036854775807
// written without sign, leading zero, exponent or separator. Generations,
// revisions and fences travel this way (docs/protocol.md#decimals).
func ParseDecimal(s string) (int64, bool) {
	if s == "" || s[0] == '0' || len(s) > 19 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		d := int64(s[i] - '0')
		if n > (1<<63-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// ValidDecimal reports whether s is a canonical positive decimal (ParseDecimal).
func ValidDecimal(s string) bool {
	_, ok := ParseDecimal(s)
	return ok
}

// FormatDecimal writes n as a canonical decimal (the inverse of ParseDecimal for n ≥ 1).
func FormatDecimal(n int64) string { return strconv.FormatInt(n, 10) }
