package wire

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// The hand-written scanners accept exactly what their grammar's regular
// expression accepts.
func TestScannersMatchTheirGrammars(t *testing.T) {
	grammars := []struct {
		name  string
		re    *regexp.Regexp
		check func(string) bool
		seeds []string
	}{
		{"kind", regexp.MustCompile(`^[A-Z][A-Za-z0-9]{0,63}$`), ValidKind, []string{"A", "Queue", "AtLeastOnceQueue", "a", "", "Q-1", strings.Repeat("A", 64), strings.Repeat("A", 65)}},
		{"digest", regexp.MustCompile(`^sha256:[0-9a-f]{64}$`), ValidDigest, []string{"sha256:" + strings.Repeat("a", 64), "sha256:" + strings.Repeat("A", 64), "sha256:" + strings.Repeat("0", 63), "sha512:" + strings.Repeat("0", 64)}},
		{"name", regexp.MustCompile(`^[a-z][a-z0-9-]{0,62}$`), ValidResourceName, []string{"a", "orders", "o-1", "1a", "", "a_b", strings.Repeat("a", 63), strings.Repeat("a", 64)}},
	}
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := "aAzZ09-_.:/sha256éx "
	for _, g := range grammars {
		cases := append([]string(nil), g.seeds...)
		for range 3000 {
			b := []byte(g.seeds[r.IntN(len(g.seeds))])
			for range r.IntN(4) {
				if len(b) > 0 && r.IntN(2) == 0 {
					b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
				} else {
					b = append(b, alphabet[r.IntN(len(alphabet))])
				}
			}
			cases = append(cases, string(b))
		}
		for _, s := range cases {
			if got, want := g.check(s), g.re.MatchString(s); got != want {
				t.Errorf("%s %q: scanner %v, grammar %v", g.name, s, got, want)
			}
		}
	}
}
