package takoform

import (
	"strings"
	"testing"
)

// TestStringOutputLengthCountsCharacters: minLength and maxLength of an output count
// characters (code points), as JSON Schema does, not UTF-8 bytes nor UTF-16 units, and
// the pattern reads the same characters. The gadget catalog's motto declares 8 to 64
// characters and a pattern that admits any script (no white space at either end).
func TestStringOutputLengthCountsCharacters(t *testing.T) {
	t.Parallel()
	host := gadgetsThrough(t)
	// U+1F419 as a host's JSON may write it: one character, four UTF-8 bytes, two UTF-16 units
	const octopus = `\ud83d\udc19`
	for _, c := range []struct {
		name, sent, written, problem string
	}{
		// 64 characters in 128 bytes: at the maximum, though its bytes are twice over it
		{"64 two-byte characters", `"` + strings.Repeat("é", 64) + `"`, strings.Repeat("é", 64), ""},
		// 64 characters in 256 bytes and 128 UTF-16 units
		{"64 characters outside the BMP", `"` + strings.Repeat(octopus, 64) + `"`, strings.Repeat("🐙", 64), ""},
		{"8 three-byte characters", `"タコの足は八本だ"`, "タコの足は八本だ", ""},
		{"65 two-byte characters", `"` + strings.Repeat("é", 65) + `"`, "", "has 65 characters, more than the declared maximum 64"},
		// 7 characters in 14 bytes: under the minimum, though its bytes are over it
		{"7 two-byte characters", `"` + strings.Repeat("é", 7) + `"`, "", "has 7 characters, fewer than the declared minimum 8"},
		{"7 characters outside the BMP", `"` + strings.Repeat(octopus, 7) + `"`, "", "has 7 characters, fewer than the declared minimum 8"},
		{"pattern", `"タコの足は八本 "`, "", `is "タコの足は八本 ", which does not match the declared pattern ^\S(?:.*\S)?$`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, d, w := host.create(t, setOutput("motto", c.sent))
			if c.problem == "" {
				wantDiags(t, d)
				if got := st.str("motto"); got != c.written {
					t.Errorf("motto = %q (%d characters), want %q as sent", got, len([]rune(got)), c.written)
				}
				return
			}
			wantDiags(t, d, w.unusableOutput("motto", c.problem))
			if st == nil || st.str(aUID) == "" || !st["motto"].IsNull() {
				t.Errorf("want the state written with motto null; got %v", st)
			}
		})
	}
}
