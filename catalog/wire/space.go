package wire

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxSpaceIDRunes bounds a SpaceID in Unicode code points (docs/protocol.md#spaces).
const MaxSpaceIDRunes = 255

// edgeForbidden are the code points a SpaceID may not start or end with: Unicode
// White_Space and U+FEFF.
func edgeForbidden(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20, r == 0x85, r == 0xA0, r == 0x1680,
		r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029, r == 0x202F,
		r == 0x205F, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

// ValidateSpaceID checks the SpaceID grammar. It never trims or normalizes: the
// string is the identity exactly as sent.
func ValidateSpaceID(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("space is not valid UTF-8; send the space name as UTF-8 text")
	}
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return fmt.Errorf("space is empty; name a space of 1 to %d characters", MaxSpaceIDRunes)
	}
	if n > MaxSpaceIDRunes {
		return fmt.Errorf("space has %d characters; a space name has at most %d", n, MaxSpaceIDRunes)
	}
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	if edgeForbidden(first) || edgeForbidden(last) {
		return fmt.Errorf("space %q starts or ends with whitespace or U+FEFF; spaces are never trimmed, so remove it", s)
	}
	if strings.ContainsRune(s, '/') {
		return fmt.Errorf("space %q contains \"/\"; choose a space name without a slash", s)
	}
	for _, r := range s {
		if r <= 0x1F || (r >= 0x7F && r <= 0x9F) {
			return fmt.Errorf("space %q contains control character U+%04X; remove it", s, r)
		}
	}
	return nil
}
