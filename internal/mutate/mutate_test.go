package mutate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sample = `package p

const limit = 3 - 1 // data: never mutated

func f(a, b int, ok bool) int {
	if a < b && ok {
		a++
	}
	if a == -b || !ok {
		return a * b
	}
	return a % b
}
`

func TestFindAndApply(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(path, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	ms, err := Find(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, string(m.Kind)+" "+m.Old+">"+m.New)
	}
	want := []string{
		"CONDITIONALS_BOUNDARY <><=", "CONDITIONALS_NEGATION <>>=", "INVERT_LOGICAL &&>||",
		"INCREMENT_DECREMENT ++>--",
		"CONDITIONALS_NEGATION ==>!=", "INVERT_NEGATIVES ->", "INVERT_LOGICAL ||>&&",
		"ARITHMETIC_BASE *>/", "ARITHMETIC_BASE %>*",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("mutants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	src := []byte(sample)
	for _, m := range ms {
		out := m.Apply(src)
		if bytes.Equal(out, src) || len(out) != len(src)-len(m.Old)+len(m.New) {
			t.Errorf("%s: Apply did not replace exactly the token", m)
		}
	}
	if out := string(ms[5].Apply(src)); !strings.Contains(out, "a == b ||") {
		t.Errorf("INVERT_NEGATIVES should drop the minus: %s", out)
	}
}

func TestCoversUsesExecutedBlocksOnly(t *testing.T) {
	c := coverMap{"/x.go": {{l0: 5, c0: 2, l1: 7, c1: 10, count: 3}, {l0: 9, c0: 1, l1: 12, c1: 2, count: 0}}}
	for _, tc := range []struct {
		line, col int
		want      bool
	}{{5, 2, true}, {6, 99, true}, {7, 10, true}, {9, 5, false}, {12, 2, false}, {5, 1, true}, {8, 1, true}} {
		if got := c.covers(Mutant{File: "/x.go", Line: tc.line, Col: tc.col}); got != tc.want {
			t.Errorf("covers(%d:%d) = %v, want %v (in a block that ran, in one that never ran, in none)", tc.line, tc.col, got, tc.want)
		}
	}
}

func TestReportClosingLineAndScore(t *testing.T) {
	rs := map[string][]Result{"a": {{Status: Killed}, {Status: TimedOut}, {Status: Lived}, {Status: NotCovered}, {Status: NotViable}}}
	var b bytes.Buffer
	c := Report(&b, []string{"a"}, rs)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if last := lines[len(lines)-1]; last != "mutation: 2 killed, 1 lived, 1 not covered, 1 not viable" {
		t.Fatalf("last line %q", last)
	}
	if c.Score() != 50 {
		t.Fatalf("score %v, want 50 (2 ÷ (2+1+1)); not viable never counts", c.Score())
	}
}

// TestRunScopeClassifies mutates a throwaway module end to end: a mutant its test
// kills, one it lets live, one that does not build and one in code no test runs
// (which, when it does not build either, is not viable rather than not covered).
func TestRunScopeClassifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(root, "m", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\ngo 1.22\n")
	write("p/p.go", `package p

func Add(a, b int) int { return a + b }

func Greet(name string) string { return "hi " + name }

func Unused(a int) bool { return a > 2 }

func Max(a, b int) int {
	if a >= b {
		return a
	}
	return b
}

func Label(s string) string { return "x" + s }
`)
	write("p/p_test.go", `package p

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("add")
	}
}

func TestGreet(t *testing.T) { _ = Greet("x") }

func TestMax(t *testing.T) {
	if Max(3, 1) != 3 || Max(1, 3) != 3 {
		t.Fatal("max")
	}
}
`)
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	rs, err := RunScope(t.Context(), Options{Root: root, Workers: 2, Log: t.Logf},
		Scope{Name: "sample", Module: "m", Dirs: []string{"nowhere", "p"}, Files: []string{"p.go"}, Tests: []string{"{pkg}"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, r := range rs {
		got[r.Old+">"+r.New+"@"+string(rune('0'+r.Line))] = r.Status
	}
	want := map[string]Status{"+>-@3": Killed, "+>-@5": NotViable, ">>>=@7": NotCovered, ">><=@7": NotCovered,
		">=>>@:": Lived, ">=><@:": Killed, "+>-@@": NotViable}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], w, got)
		}
	}
}
