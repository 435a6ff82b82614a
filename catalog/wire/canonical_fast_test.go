package wire

import (
	"encoding/json"
	"math"
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

// A decoded document (nested objects and arrays, strings, numbers, booleans
// and null) is written by the fast path exactly as the general path writes
// it; what the general path refuses or rewrites the fast path leaves to it.
func TestCanonicalFastDocumentsMatchTheGeneralPath(t *testing.T) {
	general := func(v any) (string, error) {
		raw, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		b, err := Canonicalize(raw)
		return string(b), err
	}
	alphabet := []string{"a", "Z", "0", "\"", "\\", "/", "<", "&", "\n", "\x01", "\x7f", "é", "😀", "\u2028"}
	numbers := []float64{0, 1, -1, 0.5, 1e21, 1e-7, 123456789012345680000, 9007199254740993, -1.5e-300, 3.14159, 100, 1e300, 5e-324}
	numberTexts := []string{"0", "-1", "1.50", "1e2", "1E+2", "0.000001", "123456789012345678901234567890", "-0.0", "1e400", "01", "1.", "0x10", "Inf", "", "2.5e-3"}
	r := rand.New(rand.NewPCG(3, 4))
	word := func() string {
		s := ""
		for range r.IntN(5) {
			s += alphabet[r.IntN(len(alphabet))]
		}
		return s
	}
	var value func(depth int) any
	value = func(depth int) any {
		k := r.IntN(7)
		if depth > 4 {
			k = r.IntN(4)
		}
		switch k {
		case 0:
			return nil
		case 1:
			return r.IntN(2) == 0
		case 2:
			return word()
		case 3:
			switch r.IntN(3) {
			case 0:
				return numbers[r.IntN(len(numbers))]
			case 1:
				return json.Number(numberTexts[r.IntN(len(numberTexts))])
			}
			return float64(r.IntN(2000)-1000) / float64(1+r.IntN(16))
		case 4:
			a := []any{}
			for range r.IntN(4) {
				a = append(a, value(depth+1))
			}
			return a
		default:
			m := map[string]any{}
			for range r.IntN(5) {
				m["k"+word()] = value(depth + 1)
			}
			return m
		}
	}
	fast := 0
	for i := range 3000 {
		m := map[string]any{"spec": value(0), "n": float64(i)}
		b, ok := canonicalFast(m)
		want, err := general(m)
		if !ok {
			continue // the general path decides: checked below for the values that must fall back
		}
		fast++
		if err != nil || string(b) != want {
			t.Fatalf("document %d: fast %s, general %s (%v)", i, b, want, err)
		}
	}
	if fast < 1000 {
		t.Fatalf("only %d of 3000 documents took the fast path: the comparison proves little", fast)
	}
	for _, v := range []map[string]any{
		{"k": math.Copysign(0, -1)}, {"k": math.NaN()}, {"k": math.Inf(1)}, {"é": "x"}, {"k": "\xff"},
		{"k": []any{int64(1)}}, {"k": map[string]string{"a": "b"}},
		{"k": json.Number("-0")}, {"k": json.Number("1e400")}, {"k": json.Number("01")}, {"k": json.Number("0x10")}, {"k": json.Number("")},
	} {
		if b, ok := canonicalFast(v); ok {
			t.Fatalf("%#v took the fast path (%s); the general path must decide it", v, b)
		}
	}
	if _, err := CanonicalValue(map[string]any{"k": math.Copysign(0, -1)}); err == nil {
		t.Fatal("negative zero canonicalized: the general path must still refuse it")
	}
	deep := any("x")
	for range MaxDepth + 2 {
		deep = []any{deep}
	}
	if _, ok := canonicalFast(map[string]any{"k": deep}); ok {
		t.Fatal("a document deeper than MaxDepth took the fast path")
	}
}
