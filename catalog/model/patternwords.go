package model

import (
	"fmt"
	"regexp/syntax"
	"strings"
)

// PatternWords says a schema pattern in words, for the refusals that name it
// (docs/catalog-rules.md#patterns-in-words): `^[a-z][a-z0-9-]{0,62}$` is "a lowercase
// letter, then up to 62 lowercase letters, digits or "-"". A pattern alone tells few users
// what to write. Only a pattern anchored at both ends and made of literal text and
// repeated character classes is said; for any other (alternatives, groups, a class the
// words would have to list range by range) it returns "", and the refusal names the
// pattern alone, as before.
func PatternWords(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return ""
	}
	// not Simplify: it writes x{0,63} as 63 nested optional groups
	if re.Op != syntax.OpConcat { // a concatenation holds two parts or more
		return ""
	}
	first, last := re.Sub[0], re.Sub[len(re.Sub)-1]
	if first.Op != syntax.OpBeginText || last.Op != syntax.OpEndText {
		return ""
	}
	var parts []string
	for _, sub := range re.Sub[1 : len(re.Sub)-1] {
		p, ok := partWords(sub)
		if !ok {
			return ""
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", then ")
}

// PatternSaid is a pattern as a refusal names it: the pattern, then its words when it
// has them ("^[a-z]+$: one or more lowercase letters").
func PatternSaid(expr string) string {
	if words := PatternWords(expr); words != "" {
		return expr + ": " + words
	}
	return expr
}

// partWords says one piece of an anchored pattern: literal text, a class, or a class
// repeated.
func partWords(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return "", false
		}
		return fmt.Sprintf("%q", string(re.Rune)), true
	case syntax.OpCharClass:
		one, _, ok := classWords(re.Rune)
		return one, ok
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		if re.Sub[0].Op != syntax.OpCharClass {
			return "", false
		}
		one, many, ok := classWords(re.Sub[0].Rune)
		switch re.Op {
		case syntax.OpStar:
			return "any number of " + many, ok
		case syntax.OpPlus:
			return "one or more " + many, ok
		}
		return "optionally " + one, ok
	case syntax.OpRepeat:
		if re.Sub[0].Op != syntax.OpCharClass || re.Max < 1 {
			return "", false
		}
		one, many, ok := classWords(re.Sub[0].Rune)
		switch {
		case re.Min == 1 && re.Max == 1:
			return one, ok
		case re.Min == re.Max:
			return fmt.Sprintf("%d %s", re.Min, many), ok
		case re.Min == 0:
			return fmt.Sprintf("up to %d %s", re.Max, many), ok
		}
		return fmt.Sprintf("%d to %d %s", re.Min, re.Max, many), ok
	}
	return "", false
}

// classNames are the ranges a class is said by, longest first: a class holding a-z and
// A-Z is "letters", not "lowercase letters, uppercase letters".
var classNames = []struct {
	ranges    []rune
	one, many string
}{
	{[]rune{'A', 'Z', 'a', 'z'}, "a letter", "letters"},
	{[]rune{'0', '9', 'a', 'f'}, "a lowercase hex digit", "lowercase hex digits"},
	{[]rune{'a', 'z'}, "a lowercase letter", "lowercase letters"},
	{[]rune{'A', 'Z'}, "an uppercase letter", "uppercase letters"},
	{[]rune{'0', '9'}, "a digit", "digits"},
}

// maxSingles is how many characters a class may list one by one and still be said.
const maxSingles = 4

// classWords says a character class once ("a letter, "_" or "$"") and as a plural
// ("letters, digits, "_" or "$"). A class with a range it has no name for is not said.
func classWords(ranges []rune) (one, many string, ok bool) {
	left := map[[2]rune]bool{}
	for i := 0; i < len(ranges); i += 2 { // a class's ranges come in pairs, lo and hi
		left[[2]rune{ranges[i], ranges[i+1]}] = true
	}
	var ones, manys []string
	for _, n := range classNames {
		if !holdsAll(left, n.ranges) {
			continue
		}
		for i := 0; i < len(n.ranges); i += 2 {
			delete(left, [2]rune{n.ranges[i], n.ranges[i+1]})
		}
		ones, manys = append(ones, n.one), append(manys, n.many)
	}
	var singles []string
	for i := 0; i < len(ranges); i += 2 {
		r := [2]rune{ranges[i], ranges[i+1]}
		if !left[r] {
			continue
		}
		if r[1]-r[0] > 2 { // a range with no name: said char by char only when short
			return "", "", false
		}
		for c := r[0]; c <= r[1]; c++ {
			singles = append(singles, fmt.Sprintf("%q", string(c)))
		}
	}
	if len(singles) > maxSingles {
		return "", "", false // a list that long reads worse than the pattern
	}
	// the parser makes an empty class no class at all (OpNoMatch), so this one names
	// something
	ones, manys = append(ones, singles...), append(manys, singles...)
	return orList(ones), orList(manys), true
}

func holdsAll(set map[[2]rune]bool, ranges []rune) bool {
	for i := 0; i < len(ranges); i += 2 {
		if !set[[2]rune{ranges[i], ranges[i+1]}] {
			return false
		}
	}
	return true
}

// orList joins "a", "b", "c" as "a, b or c".
func orList(xs []string) string {
	if len(xs) == 1 {
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
