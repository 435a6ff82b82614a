package guides

import (
	"fmt"
	"regexp"
	"strings"
)

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// outputLines are the lines of a command's output as a reader sees them: colours removed,
// surrounding white space trimmed, blank lines dropped.
func outputLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(ansi.ReplaceAllString(out, ""), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// wildcard is how a guide leaves out what varies (a host-assigned name, a duration).
var wildcard = regexp.MustCompile(`…|\.\.\.`)

// linePattern matches one line of expected output: the text as written, except that … and
// ... stand for any text (also none).
func linePattern(want string) *regexp.Regexp {
	parts := wildcard.Split(want, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

// MatchOutput checks that every line of the expected block appears in out, in the same order
// (other lines may come between them). It names the first expected line it cannot find.
func MatchOutput(expected, out string) error {
	got := outputLines(out)
	at := 0
	for _, want := range outputLines(expected) {
		re := linePattern(want)
		found := false
		for ; at < len(got); at++ {
			if re.MatchString(got[at]) {
				found, at = true, at+1
				break
			}
		}
		if !found {
			return fmt.Errorf("the output lacks the line %q (in this order after the lines before it)", want)
		}
	}
	return nil
}
