package wire

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// The fast path writes exactly what the general path (marshal, then RFC 8785)
// writes, for every value it takes.
func TestCanonicalFastMatchesTheGeneralPath(t *testing.T) {
	general := func(v any) string {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Canonicalize(raw)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	alphabet := []string{"a", "Z", "0", "\"", "\\", "/", "<", ">", "&", "\n", "\t", "\x01", "\x1f", "\x7f", "é", "日", "😀", " ", "\u2028"}
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		s := ""
		for range r.IntN(6) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		return s
	}
	cases := []any{map[string]string{}, map[string]any{}, map[string]string{"plan": "takokit-hostsim/v1", "tenant": "tenant-a", "uid": ""}}
	for range 500 {
		m := map[string]string{}
		for range r.IntN(8) {
			k := "k" + word()
			if plainKey(k) {
				m[k] = word()
			}
		}
		cases = append(cases, m)
	}
	for _, v := range cases {
		b, ok := canonicalFast(v)
		if !ok {
			t.Fatalf("the fast path refused %#v", v)
		}
		if want := general(v); string(b) != want {
			t.Fatalf("fast %s, general %s", b, want)
		}
	}
	if _, ok := canonicalFast(map[string]string{"é": "x"}); ok {
		t.Fatal("a non-ASCII key took the fast path")
	}
	if _, ok := canonicalFast(map[string]string{"k": "\xff"}); ok {
		t.Fatal("invalid UTF-8 took the fast path")
	}
}
