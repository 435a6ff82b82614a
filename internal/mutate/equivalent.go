package mutate

import (
	"fmt"
	"slices"
	"strings"
)

// EquivalentsFile is where the mutants judged equivalent are recorded, from
// the workspace root.
const EquivalentsFile = "internal/mutate/equivalent.tsv"

// Equivalents are the mutants judged equivalent, each with the document that
// says why (docs/mutation.md#equivalent-marks). A marked mutant is not run: it
// is reported as equivalent and counted as lived, so the score is what running
// it gives. A mark names the mutant as the killers' record does, plus a digest
// of the whole function holding it: any edit of that function drops the mark,
// and the mutant runs again until someone judges it anew.
type Equivalents struct {
	marks map[string]string // killer key@declaration digest → the document
}

// equivalentsHeader opens the file; every other line is a mark.
const equivalentsHeader = "# go tool mage mutate: mutants judged equivalent, not run (docs/mutation.md#equivalent-marks); key@function digest\tthe document that says why\n"

// LoadEquivalents reads path; a missing file marks nothing.
func LoadEquivalents(path string) (*Equivalents, error) {
	e := &Equivalents{marks: map[string]string{}}
	err := eachRecordLine(path, func(n int, l string) error {
		f := strings.Split(l, "\t")
		if len(f) != 2 || !strings.Contains(f[0], "@") || !strings.HasPrefix(f[1], "docs/") {
			return fmt.Errorf("%s:%d: want a mark (key@function digest, a tab, the docs/ file that says why the mutant is equivalent), got %q; fix or delete the line", path, n, l)
		}
		e.marks[f[0]] = f[1]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// equivalentKey is how a mark names m, whose killers' key is key.
func equivalentKey(key string, m Mutant) string { return key + "@" + m.Decl }

// marked says whether m (killers' key key) is marked equivalent.
func (e *Equivalents) marked(key string, m Mutant) bool {
	if e == nil || m.Decl == "" {
		return false
	}
	_, ok := e.marks[equivalentKey(key, m)]
	return ok
}

// Unmatched returns, sorted, the marks no result of a run carries: the
// function they were judged in has changed since, or its file left the scope.
// They mark nothing any more; their mutants, if any, ran again. Only a run
// over every row of the scope can tell (docs/mutation.md#equivalent-marks).
func (e *Equivalents) Unmatched(results map[string][]Result) []string {
	if e == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, rs := range results {
		for _, r := range rs {
			seen[r.Mark] = true
		}
	}
	var out []string
	for k := range e.marks {
		if !seen[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}
