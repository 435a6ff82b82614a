package mutate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestOnePerLineRunsOneViableMutantOfEachLine: sampling keeps every line that has
// a viable mutant mutated, by exactly one of them, never a mutant that does not
// type-check, and picks the same one on every run.
func TestOnePerLineRunsOneViableMutantOfEachLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.go")
	src := `package p

func F(a, b int, ok bool) int {
	if a < b && ok || !ok {
		return a + b*2
	}
	if a < b && ok || !ok {
		return a - b
	}
	return -a
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := Find(path)
	if err != nil {
		t.Fatal(err)
	}
	viable := make([]bool, len(ms))
	for i := range viable {
		viable[i] = i%4 != 1
	}
	if all := chooseMutants(EveryMutant, ms, viable); !slices.Equal(all, viable) {
		t.Fatalf("every mutant: %v, want the viable ones %v", all, viable)
	}
	one := chooseMutants(OnePerLine, ms, viable)
	if again := chooseMutants(OnePerLine, ms, viable); !slices.Equal(one, again) {
		t.Fatalf("two samplings differ: %v and %v", one, again)
	}
	chosen, hasViable := map[int]int{}, map[int]bool{}
	for i, m := range ms {
		if one[i] {
			if !viable[i] {
				t.Errorf("line %d: chose %s, which does not type-check", m.Line, m)
			}
			chosen[m.Line]++
		}
		if viable[i] {
			hasViable[m.Line] = true
		}
	}
	for line := range hasViable {
		if chosen[line] != 1 {
			t.Errorf("line %d: %d mutants chosen, want 1", line, chosen[line])
		}
	}
	if n, v := len(chosen), len(hasViable); n != v || n < 4 {
		t.Fatalf("%d lines mutated of %d with a viable mutant (want every one, at least 4)", n, v)
	}
}
