package conformance

import (
	"cmp"
	"iter"
	"maps"
	"slices"
)

// sorted yields a map's entries in key order. Checks range over their sub-cases
// through it, so the requests a run sends, and the first failure a check reports, are
// the same on every run (Go randomizes map order; docs/decisions.md, "Deterministic runs").
func sorted[K cmp.Ordered, V any](m map[K]V) iter.Seq2[K, V] {
	return func(yield func(K, V) bool) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}
