package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// Helpers of the tests that break the base test catalog one rule at a time
// and compare the whole list of problems the loader answers.

// problemLines loads the sealed test catalog c and answers its problem lines
// (nil when it loads).
func problemLines(t *testing.T, c *tcat) []string {
	t.Helper()
	return loadProblems(t, mapFS(c.seal(t)))
}

// loadProblems loads the catalog in fsys and answers its problem lines (nil when
// it loads).
func loadProblems(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	_, err := Load(fsys)
	if err == nil {
		return nil
	}
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("error is %T, want *LoadError: %v", err, err)
	}
	var out []string
	for _, p := range le.Problems {
		out = append(out, p.String())
	}
	return out
}

// problemCase is a test catalog broken one way and the whole list of problem
// lines the loader must answer for it (nil: it loads).
type problemCase struct {
	name   string
	mutate func(c *tcat)
	want   []string
}

// checkProblems loads the base test catalog broken by each case, as subtests.
func checkProblems(t *testing.T, cases []problemCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat := baseCatalog()
			c.mutate(cat)
			if got := problemLines(t, cat); !slices.Equal(got, c.want) {
				t.Errorf("problems:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
			}
		})
	}
}

// opNames names n operations op0..op(n-1).
func opNames(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = fmt.Sprintf("op%d", i)
	}
	return out
}
