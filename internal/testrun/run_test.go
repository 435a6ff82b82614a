package testrun

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// spanJob is a command job that writes when it started and ended (ns) into dir and
// prints three lines with sleeps between them: jobs that ran side by side would
// interleave those lines if their reports were not written in one piece.
func spanJob(dir string, i int, sleep string) Job {
	script := fmt.Sprintf(`date +%%s%%N > start-%[1]d; echo "job %[1]d one"; sleep %[2]s; echo "job %[1]d two"; sleep %[2]s; echo "job %[1]d three"; date +%%s%%N > end-%[1]d`, i, sleep)
	return Job{Name: "job " + strconv.Itoa(i), Dir: dir, Command: []string{"sh", "-c", script}}
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
	dir := t.TempDir()
	var jobs []Job
	for i := range 5 {
		jobs = append(jobs, spanJob(dir, i, "0.2"))
	}
	var out bytes.Buffer
	got := Run(jobs, 2, &out)
	if got.Failed != 0 || got.Passed != 0 {
		t.Fatalf("counts %+v: command jobs that pass add no test counts\n%s", got, out.String())
	}
	if m := maxOverlap(t, dir, len(jobs)); m != 2 {
		t.Errorf("at most %d jobs ran at once, want exactly 2 (the bound, reached)", m)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	for i := range jobs {
		// a job that passes prints its last line of output, then its own line, together
		last, ok := indexOf(lines, fmt.Sprintf("job %d three", i))
		if !ok || last+1 >= len(lines) || !strings.HasPrefix(lines[last+1], fmt.Sprintf("job %d: ok (", i)) {
			t.Errorf("job %d's report is not its last line followed by its own line:\n%s", i, out.String())
		}
		if _, ok := indexOf(lines, fmt.Sprintf("job %d one", i)); ok {
			t.Errorf("job %d passed, yet all of its output was printed:\n%s", i, out.String())
		}
		start, ok := indexOf(lines, jobs[i].Line())
		if !ok || start > last {
			t.Errorf("job %d's start line is missing or comes after its report:\n%s", i, out.String())
		}
	}
}

func TestFailedCommandCountsOnceAndPrintsAllItsOutputInOnePiece(t *testing.T) {
	dir := t.TempDir()
	bad := Job{Name: "conformance selftest", Dir: dir,
		Command: []string{"sh", "-c", `echo "first"; sleep 0.2; echo "second"; sleep 0.2; echo "missed one negative"; exit 3`}}
	jobs := []Job{spanJob(dir, 0, "0.1"), bad, spanJob(dir, 1, "0.1")}
	var out bytes.Buffer
	got := Run(jobs, 3, &out)
	if got.Failed != 1 || len(got.FailedNames) != 1 || got.FailedNames[0] != "conformance selftest" {
		t.Fatalf("counts %+v, want one failure named after the job\n%s", got, out.String())
	}
	if !strings.Contains(out.String(), "first\nsecond\nmissed one negative\nconformance selftest: failed: exit status 3 (") {
		t.Errorf("the failed job's output is not printed whole, followed by its verdict:\n%s", out.String())
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
