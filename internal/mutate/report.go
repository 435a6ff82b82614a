package mutate

import (
	"fmt"
	"io"
	"strings"
)

// Counts tallies results.
type Counts struct {
	Killed, Lived, TimedOut, Crashed, NotCovered, NotViable int
	Panicked                                                int // of Killed: the failing test panicked
	NotRun                                                  int // the run stopped first: its deadline or an interrupt
	NotSampled                                              int // viable, left out by the run's sampling
	Equivalent                                              int // of Lived: marked equivalent, not run (docs/mutation.md#equivalent-marks)
}

// Add counts one result.
func (c *Counts) Add(r Result) {
	switch r.Status {
	case Killed:
		c.Killed++
		if strings.Contains(r.Detail, panicked) {
			c.Panicked++
		}
	case NotRun:
		c.NotRun++
	case NotSampled:
		c.NotSampled++
	case Lived:
		c.Lived++
	case Equivalent:
		c.Lived++ // counted as the lived mutant it was judged to be: the score is what running it gives
		c.Equivalent++
	case TimedOut:
		c.TimedOut++
	case Crashed:
		c.Crashed++
	case NotCovered:
		c.NotCovered++
	case NotViable:
		c.NotViable++
	}
}

// Viable is every mutant that type-checks: killed, lived, timed out, crashed or
// not covered.
func (c Counts) Viable() int { return c.Killed + c.Lived + c.TimedOut + c.Crashed + c.NotCovered }

// Score is killed ÷ viable, in percent.
func (c Counts) Score() float64 {
	if c.Viable() == 0 {
		return 0
	}
	return 100 * float64(c.Killed) / float64(c.Viable())
}

// Line is `killed / lived / timeout / crash / not covered / not viable` with the score.
func (c Counts) Line() string {
	l := fmt.Sprintf("%d killed / %d lived / %d timeout / %d crash / %d not covered / %d not viable (score %.1f%%; %d of the kills by a test that panicked)",
		c.Killed, c.Lived, c.TimedOut, c.Crashed, c.NotCovered, c.NotViable, c.Score(), c.Panicked)
	if c.NotSampled > 0 {
		l += fmt.Sprintf("; %d viable not sampled", c.NotSampled)
	}
	if c.Equivalent > 0 {
		l += fmt.Sprintf("; %d of the lived marked equivalent, not run", c.Equivalent)
	}
	if c.NotRun > 0 {
		l += fmt.Sprintf("; %d NOT RUN (the run stopped first: its deadline or an interrupt)", c.NotRun)
	}
	return l
}

// Report prints one line per scope row, one per operator, the score, and the
// closing line `mutation: N killed, N lived, N timeout, N crash, N not covered, N not viable`.
func Report(w io.Writer, names []string, results map[string][]Result) Counts {
	var total Counts
	byKind := map[Kind]*Counts{}
	for _, n := range names {
		var c Counts
		for _, r := range results[n] {
			c.Add(r)
			total.Add(r)
			if byKind[r.Kind] == nil {
				byKind[r.Kind] = &Counts{}
			}
			byKind[r.Kind].Add(r)
		}
		fmt.Fprintf(w, "%-48s %s\n", n+":", c.Line())
	}
	fmt.Fprintln(w, "by operator:")
	for _, op := range Operators {
		if c := byKind[op.Kind]; c != nil {
			fmt.Fprintf(w, "  %-46s %s\n", string(op.Kind)+":", c.Line())
		}
	}
	fmt.Fprintf(w, "score: %.1f%% of viable mutants killed (killed ÷ (killed + lived + timeout + crash + not covered))\n", total.Score())
	if total.NotSampled > 0 {
		fmt.Fprintf(w, "sampled: one mutant per line; %d viable mutants of lines that had more were not run and are not in the score (MUTATE_ALL=1 runs every one)\n", total.NotSampled)
	}
	if total.Equivalent > 0 {
		fmt.Fprintf(w, "equivalent: %d of the lived are marked equivalent in %s and were not run; they count as lived (MUTATE_EQUIVALENT=run runs them)\n", total.Equivalent, EquivalentsFile)
	}
	if total.NotRun > 0 {
		fmt.Fprintf(w, "NOT RUN: %d mutants (the run stopped before them: its deadline, MUTATE_TIMEOUT, or an interrupt)\n", total.NotRun)
	}
	fmt.Fprintf(w, "mutation: %d killed, %d lived, %d timeout, %d crash, %d not covered, %d not viable\n",
		total.Killed, total.Lived, total.TimedOut, total.Crashed, total.NotCovered, total.NotViable)
	return total
}
