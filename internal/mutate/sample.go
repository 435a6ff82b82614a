package mutate

import (
	"hash/fnv"
	"path/filepath"
	"strconv"
)

// Sampling chooses which viable mutants a run executes (docs/mutation.md#sampling).
type Sampling string

const (
	// EveryMutant runs every viable mutant.
	EveryMutant Sampling = "all"
	// OnePerLine runs one viable mutant of each line that has any, the others
	// reported as not sampled: each line of the scope is still mutated, at
	// about 40% of the mutants (the selection Google's mutation testing makes,
	// "State of Mutation Testing at Google", ICSE-SEIP 2018).
	OnePerLine Sampling = "line"
)

// NotSampled is a viable mutant the run's sampling left out: never run, never
// counted in the score.
const NotSampled Status = "not sampled"

// chooseMutants returns which mutants to run: every viable one, or with OnePerLine one
// viable mutant per file and line, chosen by a hash of the file's name, the
// line's number and its text, so a run picks the same one again until that line
// changes, and lines alike pick different operators.
func chooseMutants(how Sampling, mutants []Mutant, viable []bool) []bool {
	run := append([]bool(nil), viable...)
	if how != OnePerLine {
		return run
	}
	type key struct {
		file string
		line int
	}
	groups := map[key][]int{}
	var order []key
	for i, m := range mutants {
		if !viable[i] {
			continue
		}
		k := key{m.File, m.Line}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	texts := lineTexts{}
	for _, k := range order {
		g := groups[k]
		if len(g) == 1 {
			continue
		}
		h := fnv.New32a() // an unreadable file: the hash falls back to name and number
		h.Write([]byte(filepath.Base(k.file) + ":" + strconv.Itoa(k.line) + ":"))
		h.Write(texts.at(k.file, k.line))
		pick := g[int(h.Sum32()%uint32(len(g)))]
		for _, i := range g {
			run[i] = i == pick
		}
	}
	return run
}
