package mutate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestKillerKeysSurviveEditsElsewhere: a mutant keeps its key when lines are
// added above it, and two mutants alike in file, operator, line text and
// replacement still get two keys.
func TestKillerKeysSurviveEditsElsewhere(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.go")
	src := "package p\n\nfunc A(x int) int {\n\tif x > 1 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n\nfunc B(x int) int {\n\tif x > 1 {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	keysOf := func(src string) []string {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		ms, err := Find(path)
		if err != nil {
			t.Fatal(err)
		}
		return killerKeys(dir, ms)
	}
	before := keysOf(src)
	if len(before) < 4 {
		t.Fatalf("want several mutants, got %v", before)
	}
	seen := map[string]bool{}
	for _, k := range before {
		if seen[k] {
			t.Errorf("two mutants share key %s: A's and B's alike lines need their own", k)
		}
		seen[k] = true
		if !strings.HasPrefix(k, "p.go:") {
			t.Errorf("key %s does not start with the file relative to the root", k)
		}
	}
	// comments add no mutant: the same mutants, in the same order, on moved lines
	after := keysOf(strings.Replace(src, "package p\n", "package p\n\n// added\n// above\n", 1))
	if !slices.Equal(after, before) {
		t.Errorf("keys after lines were added above them:\n%q\nwant\n%q", after, before)
	}
}

// TestKillersSaveKeepsWhatTheRunDidNotReach: Save writes this run's killers
// over the last run's, drops a mutant nothing killed this time, keeps the
// entries of mutants the run did not reach, and sorts; a malformed line is an
// error naming the file and line.
func TestKillersSaveKeepsWhatTheRunDidNotReach(t *testing.T) {
	path := filepath.Join(t.TempDir(), "killers.tsv")
	k, err := LoadKillers(path)
	if err != nil || k.get("a") != nil {
		t.Fatalf("a missing file: %v, %v; want an empty record", k, err)
	}
	old := killersHeader + "a\t.\tTestOld\t\nb\t.\tTestB\t\nd\t./selftest\tTestSelftest\tCHECKS=x\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, err = LoadKillers(path); err != nil {
		t.Fatal(err)
	}
	if got := k.get("d"); !slices.Equal(got, []Killer{{Pkg: "./selftest", Test: "TestSelftest", Env: "CHECKS=x"}}) {
		t.Errorf("d read as %v", got)
	}
	k.set("a", []Killer{{Pkg: ".", Test: "TestNew"}})
	k.set("b", nil) // lived this time
	k.set("c", []Killer{{Pkg: ".", Test: "TestC", Env: "CHECKS=y"}, {Pkg: ".", Test: "TestC", Env: "CHECKS=z"}})
	if got := k.get("a"); got[0].Test != "TestOld" {
		t.Errorf("during the run, a's killer is the last run's; got %v", got)
	}
	if err := k.Save(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	want := killersHeader + "a\t.\tTestNew\t\nc\t.\tTestC\tCHECKS=y\nc\t.\tTestC\tCHECKS=z\nd\t./selftest\tTestSelftest\tCHECKS=x\n"
	if string(b) != want {
		t.Errorf("saved:\n%s\nwant:\n%s", b, want)
	}
	if err := os.WriteFile(path, []byte(killersHeader+"a\t.\tTestA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKillers(path); err == nil || !strings.Contains(err.Error(), path+":2:") || !strings.Contains(err.Error(), "delete the file") {
		t.Errorf("a line of three fields: %v, want an error naming %s:2 and what to do", err, path)
	}
}

// TestPlannedBatchesRunTheRecordedKillersFirst: a mutant's recorded killers
// run first, as one run (a split's values joined), then the rest in the cost
// order; with none recorded the order is batches'.
func TestPlannedBatchesRunTheRecordedKillersFirst(t *testing.T) {
	ms := time.Millisecond
	us := []unit{{id: 0, name: "TestA", dur: ms}, {id: 1, name: "TestB", dur: ms}, {id: 2, name: "TestC", dur: 50 * ms}}
	show := func(bs []batch) (out []string) {
		for _, b := range bs {
			out = append(out, fmt.Sprintf("%s%v", b.pattern, b.env))
		}
		return out
	}
	if got, want := show(plannedBatches(us, nil, Scope{})), show(batches(us, Scope{})); !slices.Equal(got, want) {
		t.Errorf("nothing recorded: %q, want batches' %q", got, want)
	}
	if got, want := show(plannedBatches(us, us[2:], Scope{})), []string{"^TestC$[]", "^TestA$[]", "^TestB$[]"}; !slices.Equal(got, want) {
		t.Errorf("TestC recorded: %q, want %q", got, want)
	}
	joined := Scope{Split: &Split{Env: "X", Join: ","}}
	sp := []unit{{id: 0, name: "TestS", dur: ms, env: []string{"X=a"}}, {id: 1, name: "TestS", dur: ms, env: []string{"X=b"}},
		{id: 2, name: "TestS", dur: ms, env: []string{"X=c"}}, {id: 3, name: "TestU", dur: ms}}
	got := show(plannedBatches(sp, []unit{sp[1], sp[2]}, joined))
	if want := []string{"^TestS$[X=b,c]", "^TestS$[X=a]", "^TestU$[]"}; !slices.Equal(got, want) {
		t.Errorf("a split's two values recorded: %q, want %q", got, want)
	}
}

// TestASecondRunStartsWithTheLastKiller runs a throwaway module's one mutant
// twice: the first run tries the cheaper test first, which passes, and the
// slower one kills it; the second, given the first's record, runs only the
// killer. A record naming a test that no longer kills changes the order, not
// the verdict.
func TestASecondRunStartsWithTheLastKiller(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel() // its own sample module
	root, write := sampleModule(t)
	write("r/r.go", "package r\n\nfunc Inc(i int) int { return i + 1 }\n")
	write("r/r_test.go", `package r

import (
	"testing"
	"time"
)

func TestFast(t *testing.T) { _ = Inc(1) }

func TestSlow(t *testing.T) {
	time.Sleep(150 * time.Millisecond)
	if Inc(1) != 2 {
		t.Fatal("inc")
	}
}
`)
	path := filepath.Join(t.TempDir(), "killers.tsv")
	run := func() Result {
		t.Helper()
		k, err := LoadKillers(path)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := RunScope(t.Context(), Options{Root: root, Workers: 1, Log: func(string, ...any) {}, Killers: k},
			Scope{Name: "inc", Module: "m", Dirs: []string{"r"}, Files: []string{"r.go"}, Tests: []string{"{pkg}"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := k.Save(); err != nil {
			t.Fatal(err)
		}
		var got []Result
		for _, r := range rs {
			if r.Status != NotViable {
				got = append(got, r)
			}
		}
		if len(got) != 1 || got[0].Status != Killed {
			t.Fatalf("want the one viable mutant (+ -> -) killed, got %+v", got)
		}
		return got[0]
	}
	if r := run(); r.Ran != 2 || !strings.HasPrefix(r.Detail, "TestSlow") {
		t.Errorf("first run: %d tests ran, killed by %q; want TestFast, then TestSlow killing it", r.Ran, r.Detail)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "\tm/r\tTestSlow\t\n") {
		t.Errorf("the record does not name TestSlow of m/r:\n%s", b)
	}
	if r := run(); r.Ran != 1 || !strings.HasPrefix(r.Detail, "TestSlow") {
		t.Errorf("second run: %d tests ran, killed by %q; want TestSlow alone", r.Ran, r.Detail)
	}
	// a stale record: TestFast, which never kills it, goes first; TestSlow still does
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(b), "TestSlow", "TestFast")), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(); r.Ran != 2 || !strings.HasPrefix(r.Detail, "TestSlow") {
		t.Errorf("stale record: %d tests ran, killed by %q; want both, TestSlow killing it", r.Ran, r.Detail)
	}
}
