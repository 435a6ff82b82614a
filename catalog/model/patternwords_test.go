package model

import "testing"

// TestPatternWords: the catalog's simple patterns are said in words; any pattern the
// words could misstate is not said at all.
func TestPatternWords(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{`^[a-z][a-z0-9-]{0,62}$`, `a lowercase letter, then up to 62 lowercase letters, digits or "-"`},
		{`^[A-Za-z][A-Za-z0-9._-]{0,63}$`, `a letter, then up to 63 letters, digits, "-", "." or "_"`},
		{`^[A-Za-z_$][A-Za-z0-9_$]*$`, `a letter, "$" or "_", then any number of letters, digits, "$" or "_"`},
		{`^sha256:[0-9a-f]{64}$`, `"sha256:", then 64 lowercase hex digits`},
		{`^[A-Z][A-Z0-9_]{0,63}$`, `an uppercase letter, then up to 63 uppercase letters, digits or "_"`},
		{`^[0-9]+$`, `one or more digits`},
		{`^[a-z]?x$`, `optionally a lowercase letter, then "x"`},
		{`^[a-z]{2,5}$`, `2 to 5 lowercase letters`},
		{`^[a-z]{1}$`, `a lowercase letter`},
		{`^[x-z]$`, `"x", "y" or "z"`},
		// not said: unanchored, alternatives, groups, wide unnamed ranges, negated classes,
		// a class repeated without bound above, text folded in case, a bad pattern
		{`[a-z]+`, ``},
		{`^[a-z]+`, ``},
		{`[a-z]+$`, ``},
		{`^[a-z]x`, ``},
		{`[a-z]x$`, ``},
		{`x`, ``},
		{`^`, ``},
		{`^[w-z]$`, ``},
		{`^[a-z]{0}$`, ``},
		{`^(?:0|-?[1-9][0-9]{0,18})$`, ``},
		{`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`, ``},
		{`^[b-y]$`, ``},
		{`^[a-z0-9!#$&^_.+-]*$`, ``},
		{`^[a-z0-9$&_.+]*$`, ``},
		{`^[a-z0-9$&_.]*$`, `any number of lowercase letters, digits, "$", "&", "." or "_"`},
		{`^[^a]$`, ``},
		{`^[a-z]{2,}$`, ``},
		{`^(?i)abc$`, ``},
		{`^.$`, ``},
		{`^[$`, ``},
		{`^$`, ``},
	} {
		if got := PatternWords(c.expr); got != c.want {
			t.Errorf("PatternWords(%q) = %q, want %q", c.expr, got, c.want)
		}
	}
}

// TestPatternSaidAddsTheWordsItHas: a pattern with words is named with them after a
// colon; one without is named alone.
func TestPatternSaidAddsTheWordsItHas(t *testing.T) {
	for expr, want := range map[string]string{
		`^[0-9]+$`:     `^[0-9]+$: one or more digits`,
		`^(?:ab|cd)$`:  `^(?:ab|cd)$`,
		`[a-z]+`:       `[a-z]+`,
		`^[a-z]{2,5}$`: `^[a-z]{2,5}$: 2 to 5 lowercase letters`,
	} {
		if got := PatternSaid(expr); got != want {
			t.Errorf("PatternSaid(%q) = %q, want %q", expr, got, want)
		}
	}
}
