package mutate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAMarkedMutantIsNotRunUntilItsFunctionChanges: a mutant marked equivalent
// is reported as equivalent without a test run, and counted as lived; an edit
// outside its function keeps the mark, an edit inside drops it, and the
// mutant runs again.
func TestAMarkedMutantIsNotRunUntilItsFunctionChanges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	t.Parallel() // its own sample module
	root, write := sampleModule(t)
	src := "package r\n\nfunc Inc(i int) int { return i + 1 }\n"
	write("r/r.go", src)
	write("r/r_test.go", "package r\n\nimport \"testing\"\n\nfunc TestInc(t *testing.T) {\n\tif Inc(1) != 2 {\n\t\tt.Fatal(\"inc\")\n\t}\n}\n")
	scope := Scope{Name: "inc", Module: "m", Dirs: []string{"r"}, Files: []string{"r.go"}, Tests: []string{"{pkg}"}}
	// the one viable mutant (+ -> -), marked by its key as the run names it
	ms, err := Find(filepath.Join(root, "m", "r", "r.go"))
	if err != nil {
		t.Fatal(err)
	}
	keys := killerKeys(root, ms)
	var marks []string
	for i, m := range ms {
		if m.Kind == "ARITHMETIC_BASE" {
			marks = append(marks, equivalentKey(keys[i], m)+"\tdocs/mutation-equivalent-sample.md")
		}
	}
	if len(marks) != 1 {
		t.Fatalf("want one ARITHMETIC_BASE mutant of Inc, got %d", len(marks))
	}
	path := filepath.Join(t.TempDir(), "equivalent.tsv")
	if err := os.WriteFile(path, []byte(equivalentsHeader+marks[0]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var unmatched []string // the marks the last run's results did not carry
	run := func() Result {
		t.Helper()
		e, err := LoadEquivalents(path)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := RunScope(t.Context(), Options{Root: root, Workers: 1, Log: func(string, ...any) {}, Equivalents: e}, scope)
		if err != nil {
			t.Fatal(err)
		}
		unmatched = e.Unmatched(map[string][]Result{scope.Name: rs})
		for _, r := range rs {
			if r.Kind == "ARITHMETIC_BASE" {
				return r
			}
		}
		t.Fatal("the run has no ARITHMETIC_BASE mutant")
		return Result{}
	}
	r := run()
	if r.Status != Equivalent || r.Ran != 0 {
		t.Fatalf("marked: got %s after %d test runs (%s); want equivalent, no test run", r.Status, r.Ran, r.Detail)
	}
	if mark, _, _ := strings.Cut(marks[0], "\t"); r.Mark != mark {
		t.Errorf("the result's mark is %q; want %q, the one the file holds (the survivors list gives it to copy)", r.Mark, mark)
	}
	if len(unmatched) != 0 {
		t.Errorf("the mark matched its mutant, yet the run calls %q unmatched", unmatched)
	}
	var c Counts
	c.Add(r)
	if c.Lived != 1 || c.Equivalent != 1 || c.Score() != 0 {
		t.Errorf("an equivalent mutant counts as lived: %+v, score %.1f", c, c.Score())
	}
	// an edit above the function keeps the mark
	write("r/r.go", "package r\n\n// Inc adds one.\nfunc Inc(i int) int { return i + 1 }\n")
	if r := run(); r.Status != Equivalent {
		t.Errorf("after an edit outside Inc: %s; want still equivalent", r.Status)
	}
	// an edit inside the function drops it: the mutant runs, and TestInc kills it
	write("r/r.go", "package r\n\nfunc Inc(i int) int {\n\tn := i + 1\n\treturn n\n}\n")
	if r := run(); r.Status != Killed || r.Ran == 0 {
		t.Errorf("after Inc changed: %s after %d runs; want killed by TestInc", r.Status, r.Ran)
	} else if mark, _, _ := strings.Cut(marks[0], "\t"); r.Mark == mark || r.Mark == "" {
		t.Errorf("after Inc changed the mark is %q; want a mark other than %q, which no longer holds", r.Mark, mark)
	}
	if mark, _, _ := strings.Cut(marks[0], "\t"); len(unmatched) != 1 || unmatched[0] != mark {
		t.Errorf("after Inc changed the unmatched marks are %q; want just %q, judged in the old Inc", unmatched, mark)
	}
}

// TestEquivalentsRefuseAMalformedMark: a line that is not a mark names the
// file, the line and what to do; no file marks nothing.
func TestEquivalentsRefuseAMalformedMark(t *testing.T) {
	dir := t.TempDir()
	if e, err := LoadEquivalents(filepath.Join(dir, "none.tsv")); err != nil || e.marked("k", Mutant{Decl: "d"}) {
		t.Fatalf("a missing file: %v, %v; want no marks", e, err)
	}
	for _, line := range []string{
		"f.go:REMOVE_GUARD:0123#0\tdocs/x.md",         // no function digest
		"f.go:REMOVE_GUARD:0123#0@abcd\tsomewhere.md", // not a docs/ file
		"f.go:REMOVE_GUARD:0123#0@abcd",               // no document
	} {
		path := filepath.Join(dir, "eq.tsv")
		if err := os.WriteFile(path, []byte(equivalentsHeader+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadEquivalents(path)
		if err == nil || !strings.Contains(err.Error(), path+":2:") || !strings.Contains(err.Error(), "fix or delete the line") {
			t.Errorf("%q: %v; want an error naming %s:2 and what to do", line, err, path)
		}
	}
	path := filepath.Join(dir, "ok.tsv")
	os.WriteFile(path, []byte(equivalentsHeader+"f.go:K:0123#0@abcd\tdocs/x.md\n"), 0o644)
	e, err := LoadEquivalents(path)
	if err != nil {
		t.Fatal(err)
	}
	if !e.marked("f.go:K:0123#0", Mutant{Decl: "abcd"}) || e.marked("f.go:K:0123#0", Mutant{Decl: "abce"}) || e.marked("f.go:K:0123#0", Mutant{}) {
		t.Error("a mark holds for its key and function digest only")
	}
}

// TestEveryRecordedMarkNamesADocument: each mark of the committed file says
// where its reason is written, and that document exists.
func TestEveryRecordedMarkNamesADocument(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	e, err := LoadEquivalents(filepath.Join(root, EquivalentsFile))
	if err != nil {
		t.Fatal(err)
	}
	for k, doc := range e.marks {
		if _, err := os.Stat(filepath.Join(root, doc)); err != nil {
			t.Errorf("%s: its document %s: %v", k, doc, err)
		}
	}
}
