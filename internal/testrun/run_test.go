package testrun

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// fakeGo puts a `go` first on PATH for the rest of the test: a shell script that
// plays `go test -json` as the job's FAKE_GO says, so the scheduler is tested through
// the path every job takes (Job.GoTest) without building anything.
//   - span: writes when it started and ended (ns) into the job's folder and one
//     failing test whose three output lines come with sleeps of FAKE_SLEEP between
//     them: jobs that ran side by side would interleave those lines if their reports
//     were not written in one piece.
//   - crash: no JSON at all, a line on stdout and three on stderr with sleeps between
//     them, exit status 3: what a go command that fails before any test looks like.
func fakeGo(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
ev() { printf '{"Action":"%s","Package":"fake/%s"%s}\n' "$1" "$FAKE_I" "$2"; }
case "$FAKE_GO" in
span)
	date +%s%N > "start-$FAKE_I"
	ev run ',"Test":"TestSpan"'
	ev output ',"Test":"TestSpan","Output":"job '"$FAKE_I"' one\n"'
	sleep "$FAKE_SLEEP"
	ev output ',"Test":"TestSpan","Output":"job '"$FAKE_I"' two\n"'
	sleep "$FAKE_SLEEP"
	ev output ',"Test":"TestSpan","Output":"job '"$FAKE_I"' three\n"'
	ev fail ',"Test":"TestSpan"'
	ev fail ''
	date +%s%N > "end-$FAKE_I"
	exit 1 ;;
crash)
	echo "go: a line on stdout"
	echo "first" >&2; sleep 0.2; echo "second" >&2; sleep 0.2; echo "missed one negative" >&2
	exit 3 ;;
esac
echo "fake go: no FAKE_GO" >&2
exit 2
`
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// spanJob is job i in dir as fakeGo's span plays it.
func spanJob(dir string, i int, sleep string) Job {
	return Job{Name: "job " + strconv.Itoa(i), Dir: dir, GoTest: []string{"./..."},
		Env: []string{"FAKE_GO=span", "FAKE_I=" + strconv.Itoa(i), "FAKE_SLEEP=" + sleep}}
}

func readNs(t *testing.T, path string) int64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// maxOverlap is the largest number of jobs running at one instant.
func maxOverlap(t *testing.T, dir string, n int) int {
	type edge struct {
		at    int64
		delta int
	}
	var edges []edge
	for i := range n {
		edges = append(edges, edge{readNs(t, filepath.Join(dir, fmt.Sprintf("start-%d", i))), 1},
			edge{readNs(t, filepath.Join(dir, fmt.Sprintf("end-%d", i))), -1})
	}
	sort.Slice(edges, func(a, b int) bool {
		if edges[a].at != edges[b].at {
			return edges[a].at < edges[b].at
		}
		return edges[a].delta < edges[b].delta // an end before a start at the same instant
	})
	cur, most := 0, 0
	for _, e := range edges {
		cur += e.delta
		most = max(most, cur)
	}
	return most
}

func TestRunBoundsConcurrencyAndKeepsEachReportWhole(t *testing.T) {
	fakeGo(t)
	dir := t.TempDir()
	var jobs []Job
	for i := range 5 {
		jobs = append(jobs, spanJob(dir, i, "0.2"))
	}
	var out bytes.Buffer
	got := Run(jobs, 2, &out)
	if got.Failed != 5 || got.Passed != 0 {
		t.Fatalf("counts %+v: want the five failed tests, one per job\n%s", got, out.String())
	}
	if m := maxOverlap(t, dir, len(jobs)); m != 2 {
		t.Errorf("at most %d jobs ran at once, want exactly 2 (the bound, reached)", m)
	}
	s := out.String()
	for i := range jobs {
		// a job's report is its failed test's output whole, then its own line
		report := fmt.Sprintf("job %[1]d one\njob %[1]d two\njob %[1]d three\nmodule job %[1]d: 0 pass / 1 fail / 0 skip (", i)
		at := strings.Index(s, report)
		if at < 0 {
			t.Errorf("job %d's report is not in one piece:\n%s", i, s)
			continue
		}
		if start := strings.Index(s, jobs[i].Line()+"\n"); start < 0 || start > at {
			t.Errorf("job %d's start line is missing or comes after its report:\n%s", i, s)
		}
	}
}

// TestAGoCommandThatFailsBeforeAnyTestCountsOnce: a go test that exits non-zero
// without a failed test in its stream (a flag it refuses, a module it cannot load)
// is one failure named for the job, and everything it wrote is printed in one
// piece before the job's line, while jobs beside it run and report on their own.
func TestAGoCommandThatFailsBeforeAnyTestCountsOnce(t *testing.T) {
	fakeGo(t)
	dir := t.TempDir()
	bad := Job{Name: "conformance", Dir: dir, GoTest: []string{"./..."}, Env: []string{"FAKE_GO=crash"}}
	jobs := []Job{spanJob(dir, 0, "0.1"), bad, spanJob(dir, 1, "0.1")}
	var out bytes.Buffer
	got := Run(jobs, 3, &out)
	if got.Failed != 3 || !slices.Contains(got.FailedNames, "module conformance (go test: exit status 3)") {
		t.Fatalf("counts %+v, want the two jobs' failed tests and one failure named after the crashed job\n%s", got, out.String())
	}
	want := "go: a line on stdout\nfirst\nsecond\nmissed one negative\ngo test in " + dir + ": exit status 3\nmodule conformance: 0 pass / 1 fail / 0 skip ("
	if !strings.Contains(out.String(), want) {
		t.Errorf("the crashed job's output is not printed whole, followed by its verdict:\n%s", out.String())
	}
	if maxOverlap(t, dir, 2) != 2 {
		t.Errorf("the jobs beside the crashed one did not run side by side")
	}
}

// TestGoTestJobsSideBySide runs two go test jobs on a throwaway module at once: each
// counts its own stream, prints only what failed and closes with its module line.
func TestGoTestJobsSideBySide(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command; -short skips it")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":      "module ex\n\ngo 1.22\n",
		"a/a_test.go": "package a\nimport \"testing\"\nfunc TestOK(t *testing.T) {}\nfunc TestBad(t *testing.T) { t.Fatal(\"boom in a\") }\n",
		"b/b_test.go": "package b\nimport \"testing\"\nfunc TestOne(t *testing.T) {}\nfunc TestTwo(t *testing.T) {}\nfunc TestLater(t *testing.T) { t.Skip(\"later\") }\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	saved := filepath.Join(t.TempDir(), "b.json")
	jobs := []Job{{Name: "a", Dir: dir, Env: env, GoTest: []string{"./a"}}, {Name: "b", Dir: dir, Env: env, GoTest: []string{"./b"}, SaveJSON: saved}}
	var out bytes.Buffer
	got := Run(jobs, 2, &out)
	if got.Passed != 3 || got.Failed != 1 || got.Skipped != 1 {
		t.Fatalf("counts %+v, want 3 passed, 1 failed, 1 skipped\n%s", got, out.String())
	}
	if len(got.FailedNames) != 1 || got.FailedNames[0] != "ex/a.TestBad" {
		t.Errorf("failed %v, want ex/a.TestBad", got.FailedNames)
	}
	s := out.String()
	boom := strings.Index(s, "boom in a")
	if boom < 0 || !strings.Contains(s[boom:], "module a: 1 pass / 1 fail / 0 skip (") {
		t.Errorf("the failure is not printed before module a's line:\n%s", s)
	}
	if !strings.Contains(s, "module b: 2 pass / 0 fail / 1 skip (") {
		t.Errorf("module b's line is missing:\n%s", s)
	}
	raw, err := os.ReadFile(saved)
	if err != nil || !strings.Contains(string(raw), `"Action":"pass","Package":"ex/b","Test":"TestOne"`) {
		t.Errorf("b's stream was not saved as it came (%v):\n%s", err, raw)
	}
}

func indexOf(lines []string, s string) (int, bool) {
	for i, l := range lines {
		if l == s {
			return i, true
		}
	}
	return -1, false
}

func TestStartLineRunsAsPrintedWithTheAddedPathShort(t *testing.T) {
	t.Setenv("PATH", "/usr/bin:/bin")
	j := Job{Dir: "hostsim", Env: []string{"PATH=/w/bin:/usr/bin:/bin", "X=1"}, GoTest: []string{"-skip", "TestA|TestB", "./..."}}
	if got, want := j.Line(), "+ (cd hostsim && PATH=/w/bin:$PATH X=1 go test -json -timeout 75m -ldflags=-w -skip 'TestA|TestB' ./...)"; got != want {
		t.Errorf("start line\n%s\nwant\n%s", got, want)
	}
}
