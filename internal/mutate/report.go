package mutate

import (
	"fmt"
	"io"
)

// Counts tallies results.
type Counts struct{ Killed, Lived, NotCovered, NotViable, TimedOut int }

// Add counts one result (a timed-out mutant counts as killed).
func (c *Counts) Add(r Result) {
	switch r.Status {
	case Killed:
		c.Killed++
	case TimedOut:
		c.Killed++
		c.TimedOut++
	case Lived:
		c.Lived++
	case NotCovered:
		c.NotCovered++
	case NotViable:
		c.NotViable++
	}
}

// Score is killed ÷ (killed + lived + not covered), in percent.
func (c Counts) Score() float64 {
	d := c.Killed + c.Lived + c.NotCovered
	if d == 0 {
		return 0
	}
	return 100 * float64(c.Killed) / float64(d)
}

// Line is `killed / lived / not covered / not viable` with the score.
func (c Counts) Line() string {
	return fmt.Sprintf("%d killed / %d lived / %d not covered / %d not viable (score %.1f%%)", c.Killed, c.Lived, c.NotCovered, c.NotViable, c.Score())
}

// Report prints one line per scope, the survivors, and the closing line
// `mutation: N killed, N lived, N not covered, N not viable`.
func Report(w io.Writer, names []string, results map[string][]Result) Counts {
	var total Counts
	for _, n := range names {
		var c Counts
		for _, r := range results[n] {
			c.Add(r)
			total.Add(r)
		}
		fmt.Fprintf(w, "%-44s %s\n", n+":", c.Line())
	}
	fmt.Fprintf(w, "score: %.1f%% of viable mutants killed (killed ÷ (killed + lived + not covered)); %d timed out, counted as killed\n", total.Score(), total.TimedOut)
	fmt.Fprintf(w, "mutation: %d killed, %d lived, %d not covered, %d not viable\n", total.Killed, total.Lived, total.NotCovered, total.NotViable)
	return total
}
