// Package nearest names the known name a mistyped one probably meant, for the
// answers to bad input (profile files, fault names): " (did you mean X?)".
package nearest

import (
	"fmt"
	"strings"
)

// Suggest is " (did you mean X?)" for the known name closest to s, ignoring
// case, when one is within two edits; else "".
func Suggest(s string, known []string) string {
	best, dist := "", 3
	for _, k := range known {
		if d := distance(strings.ToLower(s), strings.ToLower(k)); d < dist {
			best, dist = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance of a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
