package selftest

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// maskRandom replaces what a run draws at random with "#": a run of 16 or more of
// [0-9a-z], else one of 6 or more lower-case hex digits, else of upper-case ones, each
// taken whole, scanning left to right (run ids, fresh name suffixes, the upper-cased
// hostnames of the canonical-form check, operation ids, digests, idempotency keys).
// It is the regular expression randomPattern, written as a scan: the recorders mask
// every request body of the self-test's runs, a manifest over a bundle ceiling is
// 1.5 MB, and the expression took a tenth of the self-test's CPU.
func maskRandom(s string) string {
	var b strings.Builder
	done := 0 // s[:done] is written
	for i := 0; i < len(s); {
		n := runOf(s, i, isLowerAlnum, 16)
		if n == 0 {
			n = runOf(s, i, isLowerHex, 6)
		}
		if n == 0 {
			n = runOf(s, i, isUpperHex, 6)
		}
		if n == 0 {
			i++
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[done:i])
		b.WriteByte('#')
		i += n
		done = i
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// runOf is the length of the run of bytes in class starting at s[i] when it is at
// least min long, else 0.
func runOf(s string, i int, class func(byte) bool, min int) int {
	n := 0
	for i+n < len(s) && class(s[i+n]) {
		n++
	}
	if n < min {
		return 0
	}
	return n
}

func isLowerAlnum(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' }
func isLowerHex(c byte) bool   { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }
func isUpperHex(c byte) bool   { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// randomPattern is what maskRandom masks, as the regular expression it replaces.
var randomPattern = regexp.MustCompile(`[0-9a-z]{16,}|[0-9a-f]{6,}|[0-9A-F]{6,}`)

// TestMaskRandomIsThePattern: the scan masks what the expression matched, on texts
// built from the characters that decide a run's class and its edges.
func TestMaskRandomIsThePattern(t *testing.T) {
	fixed := []string{"", "#", "abc", "deadbeef", "DEADBEEF", "DeadBeef", "0123456789abcdefg",
		"0123456789abcdef", "0123456789abcde", "zzzzzzzzzzzzzzzzabc12", "12345", "123456",
		"g123456", "é0123456789abcdefé", "PUT /v1/spaces/x-1a2b3c4d5e6f/kv", "aaaaaaaaaaaaaaa-bbbbbb"}
	const alphabet = "0169afgzAFGZ-/é#"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(48) {
			c := alphabet[r.IntN(len(alphabet))]
			n := 1 + r.IntN(12)
			if r.IntN(4) == 0 {
				n = 1
			}
			b.WriteString(strings.Repeat(string(c), n))
		}
		fixed = append(fixed, b.String())
	}
	for _, s := range fixed {
		if got, want := maskRandom(s), randomPattern.ReplaceAllString(s, "#"); got != want {
			t.Fatalf("maskRandom(%q) = %q, the pattern gives %q", s, got, want)
		}
	}
}
