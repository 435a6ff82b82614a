package catalog

import "testing"

// Versions order by SemVer 2.0.0 precedence: numeric parts as numbers, a
// pre-release before its release, pre-release identifiers one by one (numbers
// before words, a shorter list first), build metadata ignored.
func TestSemverPrecedence(t *testing.T) {
	ascending := []string{
		"0.9.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
		"1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.2.0", "1.10.0", "2.0.0",
	}
	for i, a := range ascending {
		for j, b := range ascending {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			if got := compareSemver(a, b); got != want {
				t.Errorf("compareSemver(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
	for _, c := range [][2]string{{"1.0.0+build.1", "1.0.0"}, {"1.0.0-rc.1+b", "1.0.0-rc.1+c"}, {"1.0.0+20260101", "1.0.0+x.y"}} {
		if got := compareSemver(c[0], c[1]); got != 0 {
			t.Errorf("compareSemver(%q, %q) = %d, want 0: build metadata does not order", c[0], c[1], got)
		}
	}
}
