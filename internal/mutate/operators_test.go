package mutate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// operatorCases: for each operator, a small function, every mutant the operator
// makes of it (old -> new, in source order) and which of those do not
// type-check (not viable). Each case is a file of one package, so one load
// type-checks them all.
var operatorCases = []struct {
	kind      Kind
	src       string
	want      []string
	notViable []string
}{
	{ArithmeticBase, `func F(a, b int, s string) (int, string) { return a + b%2, "x" + s }`,
		[]string{"+ -> -", "% -> *", "+ -> -"}, []string{`+ -> -@2`}},
	{ConditionalsBoundary, `func F(a, b int) bool { return a < b || a >= 3 }`,
		[]string{"< -> <=", ">= -> >"}, nil},
	{ConditionalsNegation, `func F(a, b int) bool { return a == b && a > 1 }`,
		[]string{"== -> !=", "> -> <="}, nil},
	{InvertLogical, `func F(a, b bool) bool { return a && b || !a }`,
		[]string{"&& -> ||", "|| -> &&"}, nil},
	{IncrementDecrement, `func F(a int) int { a++; a--; return a }`,
		[]string{"++ -> --", "-- -> ++"}, nil},
	{InvertNegatives, `func F(a int) int { return -a }`,
		[]string{"- -> "}, nil},
	{RemoveNot, `func F(a bool, s string) bool { return !a && s != "" }`,
		[]string{"! -> "}, nil},
	{ConditionTrue, `func F(a int) int {
	if a > 1 {
		return 1
	}
	for i := 0; i < a; i++ {
	}
	if ok := a > 3; ok {
		return 2
	}
	return 0
}`, []string{"a > 1 -> true", "ok -> true"}, []string{"ok -> true"}}, // ok is then declared and not used
	{ConditionFalse, `func F(a int) int {
	if a > 1 {
		return 1
	}
	for i := 0; i < a; i++ {
	}
	if a > 2 {
		a++
	} else {
		a--
	}
	if v := a * 2; v > 3 {
		return v
	}
	return a
}`, []string{"i < a -> false", "a > 2 -> false", "v > 3 -> false"}, nil}, // v is still used in the body
	{RemoveGuard, `func F(a []int) int {
	n := 0
	for _, v := range a {
		if v < 0 {
			continue
		}
		if v > 9 {
			panic("big")
		}
		if v == 5 {
			n++
		} else {
			n--
		}
		n += v
	}
	if n == 0 {
		return -1
	}
	return n
}`, []string{"if v < 0 { continue } -> ", `if v > 9 { panic("big") } -> `, "if n == 0 { return -1 } -> "}, nil},
	{RemoveStatement, `func F(a []int, c chan int) int {
	var mu interface{ Lock(); Unlock() } = nil
	n := 0
	x := 1
	mu.Lock()
	n = len(a)
	n += 2
	_ = n
	c <- n
	go println()
	println(n)
	x = 2
	println(x)
	mu.Unlock()
	panic(n)
}`, []string{"n = len(a) -> ", "n += 2 -> ", "c <- n -> ", "go println() -> ", "println(n) -> ", "x = 2 -> ", "println(x) -> "}, []string{"println(x) -> "}}, // x: declared and not used
	{ErrorToNil, `func F(a int) (int, error) {
	if a < 0 {
		return 0, errors.New("negative")
	}
	f := func() error { return nil }
	if err := f(); err != nil {
		return 0, err
	}
	g := func() (int, error) { return 1, f() }
	return g()
}`, []string{`errors.New("negative") -> nil`, "err -> nil", "f() -> nil", "g() -> nil"}, []string{"g() -> nil"}}, // g() has two results
}

func TestOperatorsOnSnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a package with the go command")
	}
	t.Parallel() // its own sample module
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module m\n\ngo 1.24\n"), 0o644)
	dir := filepath.Join(root, "p")
	os.MkdirAll(dir, 0o755)
	type found struct {
		ms   []Mutant
		file string
	}
	all := make([]found, len(operatorCases))
	for i, c := range operatorCases {
		src := fmt.Sprintf("package p\n\nimport \"errors\"\n\nvar _ = errors.New\n\n%s\n", strings.Replace(c.src, "func F(", fmt.Sprintf("func F%d(", i), 1))
		file := filepath.Join(dir, fmt.Sprintf("c%d.go", i))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		op := Operators[slices.IndexFunc(Operators, func(o Operator) bool { return o.Kind == c.kind })]
		ms, err := FindIn(file, []byte(src), []Operator{op})
		if err != nil {
			t.Fatal(err)
		}
		all[i] = found{ms, file}
	}
	p, err := loadPackage(t.Context(), root, "m/p")
	if err != nil {
		t.Fatal(err)
	}
	chk := newChecker(p)
	for i, c := range operatorCases {
		var got, notViable []string
		seen := map[string]int{}
		for _, m := range all[i].ms {
			s := Short(m.Old) + " -> " + m.New
			seen[s]++
			got = append(got, s)
			if err := chk.check(m); err != nil {
				if seen[s] > 1 {
					s = fmt.Sprintf("%s@%d", s, seen[s])
				}
				notViable = append(notViable, s)
			}
			if m.Kind != c.kind {
				t.Errorf("%s: a mutant of kind %s", c.kind, m.Kind)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: mutants\n  %q\nwant\n  %q", c.kind, got, c.want)
		}
		if !slices.Equal(notViable, c.notViable) {
			t.Errorf("%s: not viable %q, want %q", c.kind, notViable, c.notViable)
		}
	}
}

// TestOperatorTableIsComplete: every operator says what it matches and makes
// (mutationdoc checks that docs/mutation.md names each).
func TestOperatorTableIsComplete(t *testing.T) {
	for _, op := range Operators {
		if op.Matches == "" || op.Makes == "" || op.find == nil {
			t.Errorf("%s: the table row is incomplete", op.Kind)
		}
	}
}

// TestAnchorsPlaceWhatCoverLeavesOutside runs go cover over a small package: a
// case expression and the condition of an if after a function literal lie in no
// coverage block, and their anchors (the enclosing statements' starts) tell which
// runs execute them, ran or not.
func TestAnchorsPlaceWhatCoverLeavesOutside(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel() // its own sample module
	root, write := sampleModule(t)
	dir := filepath.Join(root, "m")
	src := `package p

func Ran(a bool, f func(func() bool) bool) int {
	switch {
	case !a:
		return 1
	}
	if ok := f(func() bool { return a }); !ok {
		return 2
	}
	return 3
}

func NeverRan(a bool) int {
	switch {
	case !a:
		return 1
	}
	return 0
}
`
	test := "package p\n\nimport \"testing\"\n\nfunc TestRan(t *testing.T) { Ran(true, func(g func() bool) bool { return g() }) }\n"
	write("p.go", src)
	write("p_test.go", test)
	profile := filepath.Join(dir, "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-coverprofile="+profile, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	file := filepath.Join(dir, "p.go")
	c, err := readProfile(profile, "m", dir, []string{"p.go"})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := FindIn(file, []byte(src), Operators)
	if err != nil {
		t.Fatal(err)
	}
	find := func(line int, k Kind) Mutant {
		i := slices.IndexFunc(ms, func(m Mutant) bool { return m.Line == line && m.Kind == k })
		if i < 0 {
			t.Fatalf("no %s mutant on line %d", k, line)
		}
		return ms[i]
	}
	for _, tc := range []struct {
		m       Mutant
		ran, in bool
	}{
		{find(5, RemoveNot), true, true},   // case !a: in Ran, which ran
		{find(8, RemoveNot), true, true},   // !ok, after the function literal
		{find(16, RemoveNot), false, true}, // case !a: in NeverRan
	} {
		if _, own := c.atPos(file, Pos{tc.m.Line, tc.m.Col}); own {
			t.Errorf("%s: its own position lies in a block; the case tests nothing", tc.m)
		}
		if fn := map[int]int{5: 3, 8: 3, 16: 14}[tc.m.Line]; tc.m.Func != (Pos{fn, 1}) {
			t.Errorf("%s: in the function at %v, want the one at %d:1", tc.m, tc.m.Func, fn)
		}
		if ran, in := c.at(tc.m); ran != tc.ran || in != tc.in {
			t.Errorf("%s (anchors %v): ran %v in a block %v, want %v %v", tc.m, tc.m.Anchors, ran, in, tc.ran, tc.in)
		}
	}
}
