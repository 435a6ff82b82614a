package mutate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
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
		"CONDITION_TRUE a < b && ok>true", "CONDITION_FALSE a < b && ok>false", // not a guard: its body does not leave
		"CONDITIONALS_BOUNDARY <><=", "CONDITIONALS_NEGATION <>>=", "INVERT_LOGICAL &&>||",
		"INCREMENT_DECREMENT ++>--",
		"REMOVE_GUARD if a == -b || !ok {\n\t\treturn a * b\n\t}>", // a guard: forced false would be the same mutant
		"CONDITION_TRUE a == -b || !ok>true",
		"CONDITIONALS_NEGATION ==>!=", "INVERT_NEGATIVES ->", "INVERT_LOGICAL ||>&&", "REMOVE_NOT !>",
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
	neg := ms[slices.IndexFunc(ms, func(m Mutant) bool { return m.Kind == InvertNegatives })]
	if out := string(neg.Apply(src)); !strings.Contains(out, "a == b ||") {
		t.Errorf("INVERT_NEGATIVES should drop the minus: %s", out)
	}
}

func TestUnitsForPicksTheTestsThatRanTheLineFastestFirst(t *testing.T) {
	blocks := func(ran1, ran2 int) coverMap {
		return coverMap{"/x.go": {{l0: 5, c0: 2, l1: 7, c1: 10, count: ran1}, {l0: 9, c0: 1, l1: 12, c1: 2, count: ran2}}}
	}
	p := &plan{units: []unit{
		{id: 0, name: "TestSlow", dur: 3 * time.Second, cover: blocks(1, 0)},
		{id: 1, name: "TestFast", dur: time.Second, cover: blocks(1, 0)},
		{id: 2, name: "TestOther", dur: 2 * time.Second, cover: blocks(0, 0)},
	}, kills: map[int]int{}, near: map[funcKey]map[int]int{}}
	names := func(us []unit) string {
		var n []string
		for _, u := range us {
			n = append(n, u.name)
		}
		return strings.Join(n, ",")
	}
	for _, tc := range []struct {
		line, col int
		want      string
		covered   bool
	}{
		{6, 99, "TestFast,TestSlow", true},          // in a block two tests ran
		{5, 2, "TestFast,TestSlow", true},           // its first column
		{9, 5, "", false},                           // in a block no test ran
		{8, 1, "TestFast,TestOther,TestSlow", true}, // in no block: every test
	} {
		us, covered := p.unitsFor(Mutant{File: "/x.go", Line: tc.line, Col: tc.col})
		if names(us) != tc.want || covered != tc.covered {
			t.Errorf("unitsFor(%d:%d) = %q covered %v, want %q covered %v", tc.line, tc.col, names(us), covered, tc.want, tc.covered)
		}
	}
	// TestSlow has killed five mutants of the row: 3s / 6 beats TestFast's 1s
	p.kills[0] = 5
	if us, _ := p.unitsFor(Mutant{File: "/x.go", Line: 6, Col: 1}); names(us) != "TestSlow,TestFast" {
		t.Errorf("after TestSlow's kills: %q, want it first", names(us))
	}
	// TestOther killed one mutant of the function at 8:1 and none elsewhere: for
	// that function's next mutant (in no block, every test runs) it goes first,
	// though TestSlow has killed more of the row; not for another function's
	p.killed(Mutant{File: "/x.go", Line: 8, Col: 3, Func: Pos{8, 1}}, 2)
	if us, _ := p.unitsFor(Mutant{File: "/x.go", Line: 8, Col: 5, Func: Pos{8, 1}}); names(us) != "TestOther,TestSlow,TestFast" {
		t.Errorf("after TestOther killed a neighbour: %q, want it first", names(us))
	}
	if us, _ := p.unitsFor(Mutant{File: "/x.go", Line: 8, Col: 5, Func: Pos{4, 1}}); names(us) != "TestSlow,TestFast,TestOther" {
		t.Errorf("another function's mutant: %q, want the row's order", names(us))
	}
}

func TestReportClosingLineAndScore(t *testing.T) {
	rs := map[string][]Result{"a": {{Status: Killed}, {Status: TimedOut}, {Status: Crashed}, {Status: Lived}, {Status: NotCovered}, {Status: NotViable}, {Status: NotSampled}}}
	var b bytes.Buffer
	c := Report(&b, []string{"a"}, rs)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if last := lines[len(lines)-1]; last != "mutation: 1 killed, 1 lived, 1 timeout, 1 crash, 1 not covered, 1 not viable" {
		t.Fatalf("last line %q", last)
	}
	if c.Score() != 20 {
		t.Fatalf("score %v, want 20 (1 ÷ 5): a timeout and a crash are no kill, not viable and not sampled never count", c.Score())
	}
	if !strings.Contains(b.String(), "1 viable not sampled") || !strings.Contains(b.String(), "sampled: one mutant per line; 1 viable mutants") {
		t.Fatalf("the report does not say what sampling left out:\n%s", b.String())
	}
}

// Mutants a run did not reach are counted apart, never in the score, and the report
// says why: the run stopped, by its deadline or an interrupt.
func TestReportSaysWhatTheRunDidNotReach(t *testing.T) {
	rs := map[string][]Result{"a": {{Status: Killed}, {Status: Lived}, {Status: NotRun}, {Status: NotRun}}}
	var b bytes.Buffer
	c := Report(&b, []string{"a"}, rs)
	if c.NotRun != 2 || c.Score() != 50 {
		t.Fatalf("not run %d, score %v; want 2 and 50 (1 ÷ 2): a mutant not run is no verdict", c.NotRun, c.Score())
	}
	for _, want := range []string{
		"; 2 NOT RUN (the run stopped first: its deadline or an interrupt)",
		"NOT RUN: 2 mutants (the run stopped before them: its deadline, MUTATE_TIMEOUT, or an interrupt)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
}

// TestRunScopeClassifies mutates a throwaway module end to end: a mutant its test
// kills, one it lets live, one that does not build and one in code no test runs
// (which, when it does not build either, is not viable rather than not covered).
func TestRunScopeClassifies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel() // its own sample module
	root, write := sampleModule(t)
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

func Small(a int) bool { return a == 1 || a == 2 }

func Pick(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func Loop(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += step(i)
	}
	return s
}

func Deref(p *int) int {
	done := make(chan int)
	go func() {
		if p == nil {
			done <- 0
			return
		}
		done <- *p
	}()
	return <-done
}

func Next(i int) int { return i + 1 }

func Count(n int) int {
	c := 0
	for i := 0; i < n; i = Next(i) {
		c += one(i)
	}
	return c
}
`)
	// step, in a file no mutant changes, makes the loops that never end (i-- in Loop,
	// i - 1 in Next) wait instead of spin: each runs to its two-second limit, the
	// first twice (alone again), and spinning made them most of the test's CPU.
	write("p/step.go", `package p

import "time"

// step is i, one is 1; both wait a little for an i below zero.
func step(i int) int {
	if i < 0 {
		time.Sleep(time.Millisecond)
	}
	return i
}

func one(i int) int { step(i); return 1 }
`)
	write("p/p_test.go", `package p

import (
	"testing"
	"time"
)

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

func TestSmall(t *testing.T) {
	if !Small(1) || !Small(2) || Small(3) {
		t.Fatal("small")
	}
}

func TestPick(t *testing.T) {
	x := 4
	if Pick(nil) != 0 || Pick(&x) != 4 {
		t.Fatal("pick")
	}
}

func TestLoop(t *testing.T) {
	if Loop(4) != 6 {
		t.Fatal("loop")
	}
}

func TestDeref(t *testing.T) {
	x := 5
	if Deref(nil) != 0 || Deref(&x) != 5 {
		t.Fatal("deref")
	}
}

// TestCount runs first for a mutant of Next (it is the cheaper) and hangs on
// it; TestNext, slower, then kills it.
func TestCount(t *testing.T) {
	if Count(3) != 3 {
		t.Fatal("count")
	}
}

func TestNext(t *testing.T) {
	time.Sleep(300 * time.Millisecond)
	if Next(1) != 2 {
		t.Fatal("next")
	}
}
`)
	var sampleLog strings.Builder
	rs, err := RunScope(t.Context(), Options{Root: root, Workers: 2, Grace: 2 * time.Second, Log: func(f string, a ...any) { fmt.Fprintf(&sampleLog, f+"\n", a...) }},
		Scope{Name: "sample", Module: "m", Dirs: []string{"nowhere", "p"}, Files: []string{"p.go"}, Tests: []string{"{pkg}"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, r := range rs {
		got[Short(r.Old)+">"+r.New+"@"+strconv.Itoa(r.Line)] = r.Status
	}
	want := map[string]Status{"+>-@3": Killed, "+>-@5": NotViable, ">>>=@7": NotCovered, ">><=@7": NotCovered,
		">=>>@10": Lived, ">=><@10": Killed, "+>-@16": NotViable,
		"||>&&@18":                   Killed, // builds, though vet says "suspect and": a test, not vet, decides
		"if a >= b { return a }>@10": Killed, "a >= b>true@10": Killed,
		"if p == nil { return 0 }>@21":         Killed,   // Pick(nil) dereferences nil: TestPick's own goroutine panics, --- FAIL
		"if p == nil { done <- 0 return }>@38": Crashed,  // Deref(nil) dereferences nil in a goroutine of its own: no test fails, the binary dies
		"p == nil>true@21":                     Killed,   // Pick(&x) answers 0: a clean --- FAIL
		"++>--@29":                             TimedOut, // the loop never ends, alone either
		"s += step(i)>@30":                     Killed,
		"+>-@47":                               Killed, // TestCount hangs on it, and TestNext, run after, still kills it
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], w, got)
		}
	}
	if !strings.Contains(sampleLog.String(), "re-running alone: ") || !strings.Contains(sampleLog.String(), "INCREMENT_DECREMENT") {
		t.Errorf("the timed-out mutant was not re-run alone:\n%s", sampleLog.String())
	}
	for _, r := range rs {
		if r.Status == Lived && (!strings.Contains(r.Detail, "^TestMax$") || strings.Contains(r.Detail, "TestAdd")) {
			t.Errorf("lived %s: %q, want the command running only the test that executes it (TestMax)", r.Mutant, r.Detail)
		}
	}

	// q's TestB needs TestA to have run first: alone it fails, so the row runs
	// its whole selection per mutant, and still kills what TestB catches.
	write("q/q.go", "package q\n\nfunc Double(a int) int { return a * 2 }\n")
	write("q/q_test.go", `package q

import "testing"

var ready bool

func TestA(t *testing.T) { ready = true }

func TestB(t *testing.T) {
	if !ready {
		t.Fatal("TestA must run first")
	}
	if Double(3) != 6 {
		t.Fatal("double")
	}
}
`)
	var log strings.Builder
	logf := func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }
	rs, err = RunScope(t.Context(), Options{Root: root, Workers: 2, Log: logf},
		Scope{Name: "order", Module: "m", Dirs: []string{"q"}, Files: []string{"q.go"}, Tests: []string{"{pkg}"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "TestB") || !strings.Contains(log.String(), "whole selection") {
		t.Errorf("log does not say TestB fails alone and the row runs whole selections:\n%s", log.String())
	}
	if len(rs) != 1 || rs[0].Status != Killed {
		t.Errorf("q: %+v, want the one mutant (* -> /) killed", rs)
	}
}

// TestJudge: only a `--- FAIL` line kills; a panic or an exit without one is a crash.
func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want Status
	}{
		{"--- FAIL: TestX (0.00s)\n    x_test.go:3: wrong\nFAIL\n", Killed},
		{"=== RUN TestX\n    --- FAIL: TestX/sub (0.00s)\n--- FAIL: TestX (0.00s)\nFAIL\n", Killed},
		{"--- FAIL: TestX (0.00s)\npanic: runtime error: invalid memory address [recovered]\n\ngoroutine 7\n", Killed}, // the test's own goroutine: a failing test
		{"panic: send on closed channel\n\ngoroutine 9 [running]:\n", Crashed},                                         // another goroutine: no test failed
		{"fatal error: all goroutines are asleep - deadlock!\n", Crashed},
		{"FAIL\nexit status 1\n", Crashed}, // TestMain failed after the tests passed
		{"", Crashed},
	} {
		if got, detail := judge([]byte(tc.out)); got != tc.want || detail == "" {
			t.Errorf("judge(%q) = %s %q, want %s with a detail", tc.out, got, detail, tc.want)
		}
	}
}

// TestSharedBaselineMeasuresEachTestOnce: two rows of one module share a test
// package; with a shared baseline its tests run alone, unmutated, once for both
// rows, and each row reads from the shared profiles only its own package's
// blocks, though both packages hold a file of the same name.
func TestSharedBaselineMeasuresEachTestOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, write := sampleModule(t)
	write("a/x.go", "package a\n\nfunc A(n int) bool { return n > 2 }\n")
	write("b/x.go", "package b\n\nfunc B(n int) bool { return n > 2 }\n")
	write("c/c_test.go", `package c

import (
	"os"
	"testing"

	"m/a"
	"m/b"
)

var _ = a.A // linked, never run

// note records a run measured with coverage (the baseline's; mutants run
// without it).
func note(t *testing.T) {
	if testing.CoverMode() == "" {
		return
	}
	f, err := os.OpenFile(os.Getenv("RUNS_LOG"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString(t.Name() + "\n")
}

func TestB(t *testing.T) {
	note(t)
	if !b.B(3) || b.B(2) {
		t.Fatal("B")
	}
}

func TestNothing(t *testing.T) { note(t) }

// TestProbe shows which package's mutant a run switched on.
func TestProbe(t *testing.T) {
	if os.Getenv("PROBE") != "" {
		t.Logf("A(2)=%v B(2)=%v", a.A(2), b.B(2))
	}
}
`)
	runs := filepath.Join(t.TempDir(), "runs.log")
	t.Setenv("RUNS_LOG", runs)
	rows := []Scope{
		{Name: "a", Module: "m", Dirs: []string{"a"}, Files: []string{"x.go"}, Tests: []string{"./c"}},
		{Name: "b", Module: "m", Dirs: []string{"b"}, Files: []string{"x.go"}, Tests: []string{"./c"}},
	}
	sh, err := NewShared()
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	var log strings.Builder
	o := Options{Root: root, Workers: 2, Shared: sh, Log: func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }}
	if err := sh.Prepare(t.Context(), o, rows); err != nil {
		t.Fatal(err)
	}
	got := map[string]Status{}
	for _, s := range rows {
		rs, err := RunScope(t.Context(), o, s)
		if err != nil {
			t.Fatalf("%s: %v\n%s", s.Name, err, log.String())
		}
		for _, r := range rs {
			got[s.Name+":"+r.Old+">"+r.New] = r.Status
		}
	}
	// A runs in no test: its mutants are not covered, though b/x.go's blocks at
	// the same lines ran; B's boundary falls to TestB.
	want := map[string]Status{"a:>>>=": NotCovered, "a:>><=": NotCovered, "b:>>>=": Killed, "b:>><=": Killed}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s, want %s (all: %v)", k, got[k], w, got)
		}
	}
	b, err := os.ReadFile(runs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(b))
	slices.Sort(lines)
	if !slices.Equal(lines, []string{"TestB", "TestNothing"}) {
		t.Errorf("the baseline ran %v, want TestB and TestNothing once each for both rows", lines)
	}
	// both rows ran on one build of ./c holding both schemas, and a mutant's id
	// switches on only its own package's mutant
	if n := strings.Count(log.String(), "one build per test package, the module's"); n != 2 {
		t.Errorf("%d rows used the module's shared schema build, want 2:\n%s", n, log.String())
	}
	bin, err := sh.schemaBinary(t.Context(), "m", filepath.Join(root, "m"), "./c")
	if err != nil {
		t.Fatal(err)
	}
	for pkg, want := range map[string]string{"m/a": "A(2)=true B(2)=false", "m/b": "A(2)=false B(2)=true"} {
		out, err := testCmd(t.Context(), bin, filepath.Join(root, "m", "c"), []string{"PROBE=1", mutantEnv + "=1", mutantPkgEnv + "=" + pkg}, time.Minute, "-test.run", "^TestProbe$", "-test.v")
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("mutant 1 of %s: %v\n%s\nwant %q", pkg, err, out, want)
		}
	}
}

// TestBatchesRunCheapUnitsAlone: the first units run alone, and more of them
// while their time stays within a third of the set's; the rest of a package run
// in one process, and a split's units alone unless its variable takes a list.
func TestBatchesRunCheapUnitsAlone(t *testing.T) {
	ms := time.Millisecond
	us := []unit{
		{pkg: 0, name: "TestA", dur: 10 * ms}, {pkg: 0, name: "TestB", dur: 10 * ms}, {pkg: 0, name: "TestC", dur: 10 * ms},
		{pkg: 0, name: "TestD", dur: 20 * ms}, {pkg: 1, name: "TestE", dur: 30 * ms}, // 80 ms alone in all: within 1/3 of 300
		{pkg: 0, name: "TestF", dur: 60 * ms}, {pkg: 1, name: "TestG", dur: 70 * ms},
		{pkg: 1, name: "TestS", dur: 5 * ms, env: []string{"X=1"}}, // a split's unit, after the budget: alone still
		{pkg: 0, name: "TestH", dur: 85 * ms},
	}
	var got []string
	for _, b := range batches(us, Scope{}) {
		got = append(got, fmt.Sprintf("%d:%s%v", b.pkg, b.pattern, b.env))
	}
	want := []string{"0:^TestA$[]", "0:^TestB$[]", "0:^TestC$[]", "0:^TestD$[]", "1:^TestE$[]",
		"0:^TestF$|^TestH$[]", "1:^TestG$[]", "1:^TestS$[X=1]"}
	if !slices.Equal(got, want) {
		t.Errorf("batches:\n got %q\nwant %q", got, want)
	}

	// a run's deadline is its own tests' (three times plus the grace), within what is left
	b := batch{units: []unit{{dur: 100 * ms}, {dur: 200 * ms}}}
	if got := b.limit(time.Second, time.Minute); got != 1900*ms {
		t.Errorf("limit of a 300 ms batch with 1 s grace: %s, want 1.9s", got)
	}
	if got := b.limit(time.Second, 500*ms); got != 500*ms {
		t.Errorf("limit with 500 ms of the set's time left: %s, want 500ms", got)
	}

	// past the units run alone, a package's units go in batches of 8, 32, 128...
	us = nil
	for i := range 3 + 8 + 32 + 5 {
		d := 10 * ms
		if i < 3 {
			d = 200 * ms // the three run alone already take more than a third of the set's time
		}
		us = append(us, unit{pkg: 0, name: fmt.Sprintf("Test%02d", i), dur: d})
	}
	var sizes []int
	for _, b := range batches(us, Scope{}) {
		sizes = append(sizes, len(b.units))
	}
	if want := []int{1, 1, 1, 8, 32, 5}; !slices.Equal(sizes, want) {
		t.Errorf("batch sizes %v, want %v", sizes, want)
	}
	// a second package whose one unit comes last in the cost order: its batch
	// runs before the first package's second, not after the whole first package
	us = append(us[:3+8+32:3+8+32], unit{pkg: 1, name: "TestUnit", dur: 10 * ms})
	got = nil
	for _, b := range batches(us, Scope{}) {
		got = append(got, fmt.Sprintf("%d:%d", b.pkg, len(b.units)))
	}
	if want := []string{"0:1", "0:1", "0:1", "0:8", "1:1", "0:32"}; !slices.Equal(got, want) {
		t.Errorf("batches of two packages %q, want %q", got, want)
	}

	// a split whose variable takes a list: past the first units, its units share
	// runs (values joined once each, tests once each), apart from other tests
	joined := Scope{Split: &Split{Env: "X", Join: ","}}
	us = []unit{
		{pkg: 0, name: "TestS", dur: 10 * ms, env: []string{"X=a"}}, {pkg: 0, name: "TestT", dur: 10 * ms, env: []string{"X=a"}},
		{pkg: 0, name: "TestS", dur: 10 * ms, env: []string{"X=b"}},
		{pkg: 0, name: "TestT", dur: 10 * ms, env: []string{"X=b"}}, {pkg: 0, name: "TestS", dur: 10 * ms, env: []string{"X=c"}},
		{pkg: 0, name: "TestU", dur: 10 * ms},
		{pkg: 0, name: "TestT", dur: 10 * ms, env: []string{"X=c"}},
		{pkg: 1, name: "TestS", dur: 10 * ms, env: []string{"X=d"}},
	}
	got = nil
	for _, b := range batches(us, joined) {
		got = append(got, fmt.Sprintf("%d:%s%v(%d)", b.pkg, b.pattern, b.env, len(b.units)))
	}
	want = []string{"0:^TestS$[X=a](1)", "0:^TestT$[X=a](1)", "0:^TestS$[X=b](1)",
		"0:^TestT$|^TestS$[X=b,c](3)", "0:^TestU$[](1)", "1:^TestS$[X=d](1)"}
	if !slices.Equal(got, want) {
		t.Errorf("joined batches:\n got %q\nwant %q", got, want)
	}
	// without Join the same units each run alone
	if n := len(batches(us, Scope{Split: &Split{Env: "X"}})); n != 5+1+1+1 {
		t.Errorf("%d batches without Join, want one per split unit and one for TestU (8)", n)
	}
}

// sampleModule is a throwaway module m under a temporary root, and a writer of
// its files (paths relative to the module).
func sampleModule(t *testing.T) (root string, write func(name, body string)) {
	root = t.TempDir()
	write = func(name, body string) {
		p := filepath.Join(root, "m", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\ngo 1.22\n")
	return root, write
}
